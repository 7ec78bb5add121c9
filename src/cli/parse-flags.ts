import { type ParseArgsConfig, parseArgs } from 'node:util';
import { unknownKeyError } from '../errors/index.ts';

/**
 * `parseArgs` of `node:util`, strict, with one difference: an unknown flag is a
 * `CrosscheckError` that names the command, the flag and the nearest known one
 * (`crosscheck bench: unknown flag \`--seeed\`; did you mean \`--seed\`?`), where Node says only
 * "Unknown option". Every command of the CLI parses its flags here.
 */
export const parseFlags = <T extends ParseArgsConfig>(
  command: string,
  config: T,
): ReturnType<typeof parseArgs<T>> => {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
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
