import { CrosscheckError } from '../errors/index.ts';

// What a person types for a number: digits, an optional sign, point and exponent. Number() alone
// also reads `0x10`, `0b11`, `0o7`, `Infinity` and padding, none of which a flag means.
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a flag's value spells in decimal, or undefined for a flag not given. Anything else
 * is a typed error that names the command and the flag, with an example when one is given.
 */
export const flagNumber = (
  command: string,
  option: string,
  raw: string | undefined,
  example?: string | number,
): number | undefined => {
  if (raw === undefined) return undefined;
  const x = Number(raw);
  if (!DECIMAL.test(raw) || !Number.isFinite(x)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${command}: --${option} must be a decimal number, got ${JSON.stringify(raw)}.${example === undefined ? '' : ` Pass e.g. --${option} ${example}.`}`,
      { where: `${command} --${option}` },
    );
  }
  return x;
};
