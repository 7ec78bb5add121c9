import type { LlmUsage } from '../../candidates/index.ts';
import type { LlmJson } from '../types.ts';

/** Schema tag of a cache entry file. */
export const ENTRY_SCHEMA = 'crosscheck/llm-entry';
export const ENTRY_VERSION = 1;

/** One recorded sample: `<key>/<NNNN>.json`. Volatile facts live in `meta`, outside the key. */
export interface CacheEntry {
  readonly schema: typeof ENTRY_SCHEMA;
  readonly version: typeof ENTRY_VERSION;
  readonly key: string;
  readonly sample: number;
  readonly reply: {
    /** The reply split on `\n`, so a re-recorded program diffs line by line in review. */
    readonly lines: readonly string[];
    readonly finishReason: string | null;
    readonly refusal: string | null;
    readonly logprobs: LlmJson;
  };
  readonly usage: LlmUsage;
  readonly meta: {
    readonly model: string | null;
    readonly systemFingerprint: string | null;
    readonly seed: number | null;
    readonly requestId: string | null;
    readonly recordedAt: string;
    readonly latencyMs: number;
    readonly retries: number;
  };
}

const isCount = (x: unknown): boolean =>
  x === null || (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0);
const isStrOrNull = (x: unknown): boolean => x === null || typeof x === 'string';

/** Why a parsed file is not an entry for (key, sample), or null when it is one. */
export const entryProblem = (x: unknown, key: string, sample: number): string | null => {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'not a JSON object';
  const e = x as Record<string, unknown>;
  if (e.schema !== ENTRY_SCHEMA) return `schema is ${JSON.stringify(e.schema)}, not "${ENTRY_SCHEMA}"`;
  if (e.version !== ENTRY_VERSION) return `version ${JSON.stringify(e.version)} is not ${ENTRY_VERSION}`;
  if (e.key !== key) return `it records key ${JSON.stringify(e.key)}, not ${key}`;
  if (e.sample !== sample) return `it records sample ${JSON.stringify(e.sample)}, not ${sample}`;
  const r = e.reply as Record<string, unknown> | undefined;
  if (typeof r !== 'object' || r === null) return '`reply` is missing';
  if (!Array.isArray(r.lines) || !r.lines.every((l) => typeof l === 'string'))
    return '`reply.lines` is not an array of strings';
  if (!isStrOrNull(r.finishReason) || !isStrOrNull(r.refusal))
    return '`reply.finishReason` or `reply.refusal` is not a string or null';
  const u = e.usage as Record<string, unknown> | undefined;
  if (typeof u !== 'object' || u === null) return '`usage` is missing';
  for (const f of ['prompt', 'cachedPrompt', 'completion', 'reasoning']) {
    if (!isCount(u[f])) return `\`usage.${f}\` is not a count or null`;
  }
  if (typeof e.meta !== 'object' || e.meta === null) return '`meta` is missing';
  return null;
};

export const entryText = (e: CacheEntry): string => `${JSON.stringify(e, null, 2)}\n`;
