import { readFileSync } from 'node:fs';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import type { Price, Prices } from './types.ts';

/** The date the built-in prices were transcribed from OpenAI's published pricing (standard tier); check before relying on them. @public */
export const PRICES_AS_OF = '2025-06-01';

/**
 * Built-in USD prices per million tokens (standard tier). Dated, and deliberately small: any
 * model not listed is unpriced (cost `null`) until the user declares it, because a wrong price is
 * worse than none. Override with the `prices` option or `$CROSSCHECK_LLM_PRICES`.
 * @public
 */
export const BUILTIN_PRICES: Prices = Object.freeze({
  'gpt-4o-mini*': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o*': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1-nano*': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4.1-mini*': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1*': { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini*': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'o3-mini*': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'gpt-3.5-turbo*': { input: 0.5, output: 1.5 },
});

const checkPrice = (model: string, p: unknown, where: string): Price => {
  const ok = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  const o = p as Record<string, unknown>;
  if (
    typeof p !== 'object' ||
    p === null ||
    !ok(o.input) ||
    !ok(o.output) ||
    (o.cachedInput !== undefined && !ok(o.cachedInput))
  ) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `The price of \`${model}\` must be { input, output, cachedInput? } in USD per million tokens (numbers >= 0), got ${describeValue(p)}.`,
      { where },
    );
  }
  return {
    input: o.input as number,
    output: o.output as number,
    cachedInput: o.cachedInput as number | undefined,
  };
};

/** Validates a price table, or reads one from a JSON file. */
export const loadPrices = (raw: Prices | string, where: string): Prices => {
  let table: unknown = raw;
  if (typeof raw === 'string') {
    try {
      table = JSON.parse(readFileSync(raw, 'utf8'));
    } catch (error) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `Cannot read the price table ${raw} (${(error as Error).message}); it must be a JSON object { "<model or glob*>": { "input": 0.15, "output": 0.6 } } in USD per million tokens.`,
        { where, cause: error },
      );
    }
  }
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected a price table { "<model or glob*>": { input, output } }, got ${describeValue(table)}.`,
      { where },
    );
  }
  const out: Record<string, Price> = {};
  for (const [model, p] of Object.entries(table)) out[model] = checkPrice(model, p, where);
  return Object.freeze(out);
};

/**
 * The price of a model: an exact name first, then the longest matching glob, in the user's
 * table and then the built-in one; undefined when none applies.
 */
export const priceOf = (tables: readonly Prices[], model: string): Price | undefined => {
  for (const table of tables) {
    const exact = table[model];
    if (exact) return exact;
    let best: [string, Price] | undefined;
    for (const [pattern, price] of Object.entries(table)) {
      if (!pattern.endsWith('*')) continue;
      const prefix = pattern.slice(0, -1);
      if (model.startsWith(prefix) && (best === undefined || prefix.length > best[0].length))
        best = [prefix, price];
    }
    if (best) return best[1];
  }
  return undefined;
};
