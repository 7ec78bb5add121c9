#!/usr/bin/env node
/** The `crosscheck` command. Subcommands arrive with the reporter and benchmark issues. */
const [command] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h') {
  process.stdout.write(
    'Usage: crosscheck <command>\n\nCommands are added as the package grows: report, bench.\n',
  );
} else {
  process.stderr.write(
    `crosscheck: unknown command ${JSON.stringify(command)}; run \`crosscheck --help\`.\n`,
  );
  process.exitCode = 2;
}
