/**
 * Runs a benchmark script as the package ships its code: bundled into one ES module, not
 * transpiled module by module through tsx.
 *
 *   node bench/bundled.mjs bench/floor.ts [args...]
 *
 * Why: tsx compiles with esbuild's `keepNames`, which wraps every function and class it defines
 * in a `__name(...)` call that sets its name. A closure made per call then costs a property
 * definition and gets a map of its own, and V8 optimizes less of the hot code. Through tsx,
 * `crosscheck bench` on bench:floor's 20 tasks took 8.1–8.3 s of host CPU, and 7.1–7.6 s from
 * `dist/` (three runs each, side by side; docs/reference.md, "Benchmarks"). `dist/` is what
 * users run, and a benchmark of the product measures the product.
 *
 * The bundle is written beside the entry (as `.<name>.bundle.mjs`, git-ignored) so that paths
 * the script builds from `import.meta.dirname` stay as they are. Packages stay external: they
 * load from node_modules as they would for a user.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const [entry, ...args] = process.argv.slice(2);
if (!entry?.endsWith('.ts')) {
  console.error('usage: node bench/bundled.mjs <script.ts> [args...]');
  process.exit(2);
}
const source = resolve(entry);
const outfile = join(dirname(source), `.${basename(source, '.ts')}.bundle.mjs`);
// buildSync runs esbuild as a child process that has exited (and been reaped) when it returns:
// none of its CPU time can enter the measurements that follow.
buildSync({
  entryPoints: [source],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile,
  logLevel: 'warning',
});
// The script reads its own arguments (parseArgs reads process.argv from index 2).
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
