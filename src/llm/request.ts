import { createHash } from 'node:crypto';
import type { ChatMessage, LlmJson, SamplingOptions } from './types.ts';

/** Version of the key schema; a change makes every recorded entry a miss, so it is bumped rarely. */
export const KEY_VERSION = 1;

/** JSON with sorted keys, no whitespace and undefined dropped: one text per request. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
};

/** Sorted-key copy, for pretty-printing a request the same way every time. */
export const sortedCopy = (value: unknown): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = sortedCopy(v);
  }
  return out;
};

/**
 * The key object: what decides the reply. Transport (key, headers, timeouts), strategy (`n`) and
 * purpose are left out; the sample index addresses a file inside the request's directory.
 */
export interface KeyObject {
  readonly v: number;
  readonly api: 'chat.completions';
  readonly provider: string;
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly temperature?: number;
  readonly top_p?: number;
  readonly max_tokens?: number;
  readonly stop?: readonly string[];
  readonly seed?: number;
  readonly presence_penalty?: number;
  readonly frequency_penalty?: number;
  readonly logprobs?: boolean;
  readonly top_logprobs?: number;
  readonly response_format?: LlmJson;
  readonly extra?: Readonly<Record<string, LlmJson>>;
}

export const keyObject = (
  provider: string,
  model: string,
  messages: readonly ChatMessage[],
  s: SamplingOptions,
): KeyObject => ({
  v: KEY_VERSION,
  api: 'chat.completions',
  provider,
  model,
  // Only role and content: anything else a caller's object carries does not reach the server.
  messages: messages.map((m) => ({ role: m.role, content: m.content })),
  temperature: s.temperature,
  top_p: s.topP,
  max_tokens: s.maxTokens,
  stop: s.stop === undefined ? undefined : [...s.stop],
  seed: s.seed,
  presence_penalty: s.presencePenalty,
  frequency_penalty: s.frequencyPenalty,
  logprobs: s.logprobs,
  top_logprobs: s.topLogprobs,
  response_format: s.responseFormat,
  extra: s.extra,
});

/** sha256 of the canonical key object, 32 hex characters. */
export const requestKey = (canonical: string): string =>
  createHash('sha256').update(canonical).digest('hex').slice(0, 32);

/**
 * The seed sample i sends when a base seed is set: a 31-bit mix of both, so a seeded server
 * returns independent samples rather than one reply n times (incoherence 0 by construction).
 */
export const seedFor = (base: number, sample: number): number => {
  let h = (Math.imul(base | 0, 0x9e3779b1) ^ Math.imul(sample + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) & 0x7fffffff;
};

/** The request body sent to the server for one sample (or `n` samples under `server-n`). */
export const requestBody = (
  key: KeyObject,
  sample: number,
  n: number | undefined,
): Record<string, unknown> => {
  const body: Record<string, unknown> = { ...(key.extra ?? {}) };
  body.model = key.model;
  body.messages = key.messages;
  for (const f of [
    'temperature',
    'top_p',
    'max_tokens',
    'stop',
    'presence_penalty',
    'frequency_penalty',
    'logprobs',
    'top_logprobs',
    'response_format',
  ] as const) {
    if (key[f] !== undefined) body[f] = key[f];
  }
  if (key.seed !== undefined) body.seed = seedFor(key.seed, sample);
  if (n !== undefined && n > 1) body.n = n;
  return body;
};
