import { fromWireOutcome, type Outcome, WIRE, type WireOutcome } from '../outcome.ts';

/**
 * Decoding what a sandbox worker reports. The worker runs candidate code, so every report is
 * checked against what the harness can produce before the host believes any of it.
 */

/** What the harness reports for a chunk (see `runChunk` in harness.ts). */
export interface ChunkReport {
  n: number;
  p: 0 | 1;
  /**
   * A number, boolean or null as itself, any other value as its tagged form's JSON text; null
   * also where `e` holds the input's other outcome.
   */
  v: Array<string | number | boolean | null>;
  e: Array<[number, typeof WIRE.invalid | typeof WIRE.error, string, string]>;
}

/** The timeout of a call whose promise never settled. */
export const UNSETTLED: Outcome = Object.freeze({ kind: 'timeout', reason: 'unsettled', ms: 0 });

const isIndex = (x: unknown, below: number): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < below;

/**
 * A chunk report, checked against everything the harness guarantees: `n` within the job, exactly
 * one outcome per call, other outcomes in order, of kind invalid or error only (crash and timeout
 * are the host's to assign). Null when anything is off.
 */
export const readChunk = (text: string, from: number, to: number): ChunkReport | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { n, p, v, e } = parsed as Record<string, unknown>;
  if (!(p === 0 || p === 1) || !Array.isArray(v) || !Array.isArray(e)) return null;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= from || n > to) return null;
  if (v.length !== n - from - p || e.length > v.length) return null;
  // Values come as numbers, booleans, null or JSON texts: never as built objects.
  for (let k = 0; k < v.length; k++) {
    const x = v[k];
    if (x !== null && typeof x === 'object') return null;
  }
  let last = -1;
  for (const o of e) {
    if (!Array.isArray(o) || o.length !== 4) return null;
    const [k, kind, name, message] = o as unknown[];
    if (!isIndex(k, v.length) || k <= last || v[k] !== null) return null;
    if (
      !(kind === WIRE.invalid || kind === WIRE.error) ||
      typeof name !== 'string' ||
      typeof message !== 'string'
    )
      return null;
    last = k;
  }
  return { n, p, v: v as ChunkReport['v'], e: e as ChunkReport['e'] };
};

/**
 * The outcome a promise settled with (`[0, tagged]`, `[1|2, name, message]`), an unsettled
 * timeout for '' or null, and null for anything the harness cannot produce.
 */
export const readPending = (text: string | null): Outcome | null => {
  if (text === null || text === '') return UNSETTLED;
  let w: unknown;
  try {
    w = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(w)) return null;
  if (w.length === 2 && w[0] === WIRE.value) return fromWireOutcome(w as WireOutcome);
  if (
    w.length === 3 &&
    (w[0] === WIRE.invalid || w[0] === WIRE.error) &&
    typeof w[1] === 'string' &&
    typeof w[2] === 'string'
  ) {
    return fromWireOutcome(w as WireOutcome);
  }
  return null;
};
