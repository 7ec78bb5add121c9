import { createHash } from 'node:crypto';
import type { ResolvedLlmOptions } from './options.ts';
import type { AttemptFailure } from './transport.ts';

/** What to do after a failed attempt. */
export type RetryDecision =
  | { readonly retry: true; readonly delayMs: number; readonly reason: string; readonly fromServer: boolean }
  | { readonly retry: false; readonly quota: boolean };

/** A server-given delay: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export const retryAfterMs = (headers: Headers | null, now = Date.now()): number | null => {
  if (!headers) return null;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return ms;
  const after = headers.get('retry-after');
  if (after === null) return null;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? date - now : null;
};

/**
 * Jitter from a hash of (key, sample, attempt), not Math.random: a replayed fault schedule then
 * waits the same way every run.
 */
const jitter = (key: string, sample: number, attempt: number): number =>
  createHash('sha256').update(`${key}/${sample}/${attempt}`).digest().readUInt32BE(0) / 2 ** 32;

/**
 * The SDK's rules, made ours: connection errors, timeouts, 408, 409, 429 and 5xx are retried
 * unless the server says `x-should-retry: false`; a quota 429 never is (retrying cannot help);
 * other 4xx and aborts are final.
 */
export const decide = (
  f: AttemptFailure,
  attemptNo: number,
  o: ResolvedLlmOptions,
  key: string,
  sample: number,
): RetryDecision => {
  if (f.reason === 'abort') return { retry: false, quota: false };
  if (f.status === 429 && f.code === 'insufficient_quota') return { retry: false, quota: true };
  if (attemptNo > o.maxRetries) return { retry: false, quota: false };
  const should = f.headers?.get('x-should-retry');
  if (should === 'false') return { retry: false, quota: false };
  const retryable =
    should === 'true' ||
    f.reason !== 'status' ||
    (f.status !== null && (f.status === 408 || f.status === 409 || f.status === 429 || f.status >= 500));
  if (!retryable) return { retry: false, quota: false };
  const given = retryAfterMs(f.headers);
  const reason = f.reason === 'status' ? String(f.status) : f.reason;
  if (given !== null && given > 0 && given <= o.maxRetryAfterMs) {
    return { retry: true, delayMs: given, reason, fromServer: true };
  }
  const backoff = Math.min(o.baseDelayMs * 2 ** (attemptNo - 1), o.maxDelayMs);
  return {
    retry: true,
    delayMs: backoff * (1 - 0.25 * jitter(key, sample, attemptNo)),
    reason,
    fromServer: false,
  };
};
