import { CrosscheckError, isCrosscheckError } from '../errors/index.ts';
import { verifyCache } from '../llm/index.ts';
import { neutralizeControls } from '../values/index.ts';
import { parseFlags } from './parse-flags.ts';

/** Usage of `crosscheck llm-cache`. */
export const LLM_CACHE_USAGE = `Usage:
  crosscheck llm-cache verify [<dir>]
      Check a committed LLM cache directory as a replay reads it: every request.json hashes to
      the key naming its folder, every NNNN.json is a valid entry for its key and sample, no
      merge-conflict markers, no quarantined (.corrupt-…) or stray files. Reads only.
      Problems on stderr, one JSON line on stdout; exit 0 clean, 1 problems found, 2 misuse.
      <dir> defaults to $CROSSCHECK_LLM_CACHE_DIR, then ./llm-cache.

Options:
  -h, --help   this help
`;

/** `crosscheck llm-cache ...`; returns the exit code (0 clean, 1 problems, 2 misuse). */
export const runLlmCacheCommand = async (argv: readonly string[]): Promise<number> => {
  let parsed: { values: { help?: boolean }; positionals: string[] };
  try {
    parsed = parseFlags('crosscheck llm-cache', {
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    process.stderr.write(
      `${neutralizeControls((error as Error).message, { newlines: true })}\n\n${LLM_CACHE_USAGE}`,
    );
    return 2;
  }
  const [sub, ...rest] = parsed.positionals;
  if (parsed.values.help || sub === undefined) {
    (parsed.values.help ? process.stdout : process.stderr).write(LLM_CACHE_USAGE);
    return parsed.values.help ? 0 : 2;
  }
  try {
    if (sub !== 'verify') {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `crosscheck llm-cache: unknown subcommand ${JSON.stringify(sub)}; the subcommand is verify, e.g. crosscheck llm-cache verify llm-cache.`,
        { where: 'crosscheck llm-cache' },
      );
    }
    if (rest.length > 1) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `crosscheck llm-cache verify: one directory, got ${rest.length} (${rest.join(' ')}).`,
        { where: 'crosscheck llm-cache verify' },
      );
    }
    const dir = rest[0] ?? process.env.CROSSCHECK_LLM_CACHE_DIR ?? 'llm-cache';
    const result = await verifyCache(dir);
    for (const p of result.problems) process.stderr.write(`${neutralizeControls(`${p.path}: ${p.why}`)}\n`);
    process.stderr.write(
      `crosscheck llm-cache verify: ${result.requests} request${result.requests === 1 ? '' : 's'}, ${result.entries} entr${result.entries === 1 ? 'y' : 'ies'}, ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${dir}\n`,
    );
    process.stdout.write(
      `${JSON.stringify({ dir, requests: result.requests, entries: result.entries, problems: result.problems })}\n`,
    );
    return result.problems.length === 0 ? 0 : 1;
  } catch (error) {
    if (!isCrosscheckError(error)) throw error;
    process.stderr.write(
      `CrosscheckError [${error.code}]: ${neutralizeControls(error.message, { newlines: true })}\n`,
    );
    return 2;
  }
};
