import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CrosscheckError, unknownKeyError } from '../errors/index.ts';

/**
 * `parseArgs` of `node:util`, strict, with one difference: an unknown flag is a
 * `CrosscheckError` that names the command, the flag and the nearest known one
 * (`crosscheck bench: unknown flag \`--seeed\`; did you mean \`--seed\`?`), where Node says only
 * "Unknown option". A flag that takes one value and is given twice is refused too (Node keeps the
 * last one, so `--n 5 … --n 7` would run with 7 and say nothing), and a value that starts with a
 * dash gets a message that says how to pass it. Every command of the CLI parses its flags here.
 */
export const parseFlags = <T extends ParseArgsConfig>(
  command: string,
  config: T,
): ReturnType<typeof parseArgs<T>> => {
  try {
    const parsed = parseArgs({ ...config, tokens: true });
    refuseRepeats(command, config, parsed.tokens ?? []);
    return parsed as ReturnType<typeof parseArgs<T>>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const dashed = /Option '(--[^']+)' argument is ambiguous/.exec((error as Error).message ?? '');
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && dashed !== null) {
      const flag = dashed[1] as string;
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${command}: the value of \`${flag}\` starts with a dash, which reads as another flag. Write it joined with \`=\`, e.g. ${flag}=-1.`,
        { where: `${command} ${flag}` },
      );
    }
    const flag = /Unknown option '(-{1,2})([^'=]+)'/.exec((error as Error).message ?? '');
    if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || flag === null) throw error;
    const [, dashes, name] = flag as unknown as [string, string, string];
    const known = Object.keys(config.options ?? {});
    throw unknownKeyError(
      { where: command, noun: 'flag', show: (k) => (k === name ? `${dashes}${name}` : `--${k}`) },
      '',
      name,
      undefined,
      known,
    );
  }
};

/** Refuses a single-value flag given more than once, naming both values. */
const refuseRepeats = (
  command: string,
  config: ParseArgsConfig,
  tokens: readonly { kind: string; name?: string; value?: string | undefined }[],
): void => {
  const seen = new Map<string, string | undefined>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (config.options?.[token.name]?.multiple === true) continue;
    if (seen.has(token.name)) {
      const values = [seen.get(token.name), token.value].filter((v) => v !== undefined);
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${command}: \`--${token.name}\` is given more than once${values.length > 0 ? ` (${values.map((v) => JSON.stringify(v)).join(', then ')})` : ''}; it takes one value. Pass it once.`,
        { where: `${command} --${token.name}` },
      );
    }
    seen.set(token.name, token.value);
  }
};
