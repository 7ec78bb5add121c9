import { resolve } from 'node:path';
import { CrosscheckError, checkKeys, describeValue, knownKeys, orFalse } from '../errors/index.ts';
import { BUILTIN_PRICES, loadPrices } from './prices.ts';
import type {
  CacheMode,
  CacheModeSource,
  LlmOptions,
  Prices,
  SampleCandidatesOptions,
  SamplingOptions,
} from './types.ts';

/** The resolved form of {@link LlmOptions}. */
export interface ResolvedLlmOptions {
  readonly model: string;
  readonly baseURL: string;
  /** Held in memory only; never serialized (see `toJSON` of the client). */
  readonly apiKey: string | undefined;
  readonly provider: string;
  readonly sampling: SamplingOptions;
  readonly strategy: 'repeat' | 'server-n';
  readonly cacheDir: string;
  readonly cacheMode: CacheMode;
  readonly cacheModeSource: CacheModeSource;
  readonly maxConcurrency: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
  readonly prices: readonly Prices[];
  readonly headers: Readonly<Record<string, string>>;
  readonly maxReplyBytes: number;
  readonly onWarning: (message: string) => void;
}

export const OPENAI_URL = 'https://api.openai.com/v1';
const MODES: readonly CacheMode[] = ['read-write', 'replay-only', 'refresh', 'off'];
const WHERE = 'createLlm(options)';

/** The keys of {@link SamplingOptions}. @internal */
export const SAMPLING_KEYS = knownKeys<SamplingOptions>({
  temperature: true,
  topP: true,
  maxTokens: true,
  stop: true,
  seed: true,
  presencePenalty: true,
  frequencyPenalty: true,
  logprobs: true,
  topLogprobs: true,
  responseFormat: true,
  extra: true,
});

/** Where a sampling key the API does not know belongs. */
const SAMPLING_HINT = 'Server-specific sampling fields go in `sampling.extra`.';

/** The keys {@link createLlm} takes, nested ones too. @internal */
export const LLM_OPTION_KEYS = knownKeys<LlmOptions>({
  model: true,
  baseURL: true,
  apiKey: true,
  provider: true,
  sampling: SAMPLING_KEYS,
  strategy: true,
  cache: orFalse({ dir: true, mode: true }),
  maxConcurrency: true,
  timeoutMs: true,
  retry: knownKeys<NonNullable<LlmOptions['retry']>>({
    maxRetries: true,
    baseDelayMs: true,
    maxDelayMs: true,
    maxRetryAfterMs: true,
  }),
  prices: true,
  headers: true,
  maxReplyBytes: true,
  onWarning: true,
});

/** The keys of `llm.sampleCandidates(task, options)`. @internal */
export const SAMPLE_CANDIDATES_KEYS = knownKeys<SampleCandidatesOptions>({
  n: true,
  language: true,
  start: true,
  prompt: true,
  sampling: SAMPLING_KEYS,
  signal: true,
});

const bad = (option: string, rule: string, got: unknown, fix = ''): never => {
  throw new CrosscheckError(
    'INVALID_OPTION',
    `createLlm({ ${option} }): must be ${rule}, got ${describeValue(got)}.${fix ? ` ${fix}` : ''}`,
    { where: `createLlm({ ${option} })` },
  );
};

const nonEmpty = (x: string | undefined): string | undefined => (x === undefined || x === '' ? undefined : x);

const positiveInt = (option: string, x: unknown, fallback: number, unit = ''): number => {
  if (x === undefined) return fallback;
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x <= 0)
    bad(option, `a positive integer${unit}`, x);
  return x as number;
};

const nonNegativeInt = (option: string, x: unknown, fallback: number): number => {
  if (x === undefined) return fallback;
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) bad(option, 'an integer >= 0', x);
  return x as number;
};

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * `openai` for OpenAI's URL; else `host[:port]/path` of the base URL, with loopback hosts written
 * `localhost` and no port, so a test server on a random port keeps stable keys.
 */
export const providerOf = (baseURL: string): string => {
  const url = new URL(baseURL);
  if (url.hostname === 'api.openai.com') return 'openai';
  const path = url.pathname.replace(/\/+$/, '');
  const host = isLoopback(url.hostname) ? 'localhost' : url.host;
  return `${host}${path}`;
};

const readSampling = (x: unknown, option = 'sampling'): SamplingOptions => {
  if (x === undefined) return {};
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return bad(option, 'an object', x);
  const s = x as Record<string, unknown>;
  const num = (k: string, ok: (v: number) => boolean, rule: string) => {
    const v = s[k];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)))
      bad(`${option}.${k}`, rule, v);
  };
  checkKeys({ where: WHERE, hint: SAMPLING_HINT }, s, SAMPLING_KEYS, `${option}.`);
  num('temperature', (v) => v >= 0 && v <= 2, 'a number in [0, 2]');
  num('topP', (v) => v > 0 && v <= 1, 'a number in (0, 1]');
  num('maxTokens', (v) => Number.isSafeInteger(v) && v > 0, 'a positive integer');
  num('seed', (v) => Number.isSafeInteger(v), 'an integer');
  num('presencePenalty', (v) => v >= -2 && v <= 2, 'a number in [-2, 2]');
  num('frequencyPenalty', (v) => v >= -2 && v <= 2, 'a number in [-2, 2]');
  num('topLogprobs', (v) => Number.isSafeInteger(v) && v >= 0, 'an integer >= 0');
  if (s.stop !== undefined && (!Array.isArray(s.stop) || !s.stop.every((t) => typeof t === 'string')))
    bad(`${option}.stop`, 'an array of strings', s.stop);
  if (s.logprobs !== undefined && typeof s.logprobs !== 'boolean')
    bad(`${option}.logprobs`, 'a boolean', s.logprobs);
  if (s.extra !== undefined && (typeof s.extra !== 'object' || s.extra === null || Array.isArray(s.extra)))
    bad(`${option}.extra`, 'an object of JSON values', s.extra);
  return { ...(s as SamplingOptions) };
};

export { readSampling };

/** Resolves options against the environment, one reader per field (STYLE rule 5). */
export const resolveLlmOptions = (
  raw: LlmOptions | undefined,
  env: NodeJS.ProcessEnv,
): ResolvedLlmOptions => {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null)) bad('options', 'an object', raw);
  if (raw !== undefined) checkKeys({ where: WHERE, hint: SAMPLING_HINT }, raw, LLM_OPTION_KEYS);
  const o = { ...(raw ?? {}) } as LlmOptions;

  const model = o.model ?? nonEmpty(env.CROSSCHECK_LLM_MODEL);
  if (typeof model !== 'string' || model === '')
    bad(
      'model',
      'the model name as the endpoint knows it',
      model,
      'Pass `model` or set CROSSCHECK_LLM_MODEL.',
    );

  const baseURL =
    o.baseURL ?? nonEmpty(env.CROSSCHECK_LLM_BASE_URL) ?? nonEmpty(env.OPENAI_BASE_URL) ?? OPENAI_URL;
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    bad('baseURL', 'an http(s) URL ending in /v1, such as http://localhost:11434/v1', baseURL);

  const apiKey = o.apiKey ?? nonEmpty(env.CROSSCHECK_LLM_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY);
  if (apiKey !== undefined && typeof apiKey !== 'string') bad('apiKey', 'a string', '(a non-string value)');

  const provider = o.provider ?? providerOf(baseURL);
  if (typeof provider !== 'string' || !/^[\w.:/@-]+$/.test(provider))
    bad('provider', 'a name of letters, digits and . : / @ - _', provider);

  const strategy = o.strategy ?? 'repeat';
  if (strategy !== 'repeat' && strategy !== 'server-n') bad('strategy', "'repeat' or 'server-n'", strategy);

  // Cache: env beats the option so a CI job can force replay whatever a test file says.
  const cacheOpt = o.cache;
  if (cacheOpt !== undefined && cacheOpt !== false && (typeof cacheOpt !== 'object' || cacheOpt === null))
    bad('cache', '{ dir?, mode? } or false', cacheOpt);
  const optMode: CacheMode | undefined = cacheOpt === false ? 'off' : cacheOpt?.mode;
  const envMode = nonEmpty(env.CROSSCHECK_LLM_CACHE);
  if (envMode !== undefined && !MODES.includes(envMode as CacheMode)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `CROSSCHECK_LLM_CACHE must be one of ${MODES.join(', ')}, got ${describeValue(envMode)}.`,
      { where: 'CROSSCHECK_LLM_CACHE' },
    );
  }
  if (optMode !== undefined && !MODES.includes(optMode)) bad('cache.mode', MODES.join(', '), optMode);
  const ci = nonEmpty(env.CI);
  const inCi = ci !== undefined && ci !== 'false' && ci !== '0';
  const [cacheMode, cacheModeSource]: [CacheMode, CacheModeSource] =
    envMode !== undefined
      ? [envMode as CacheMode, 'env']
      : optMode !== undefined
        ? [optMode, 'option']
        : inCi
          ? ['replay-only', 'ci']
          : ['read-write', 'default'];
  const dirOpt = cacheOpt === false ? undefined : cacheOpt?.dir;
  if (dirOpt !== undefined && (typeof dirOpt !== 'string' || dirOpt === ''))
    bad('cache.dir', 'a directory path', dirOpt);
  const cacheDir = resolve(dirOpt ?? nonEmpty(env.CROSSCHECK_LLM_CACHE_DIR) ?? 'llm-cache');

  const envConc = nonEmpty(env.CROSSCHECK_LLM_MAX_CONCURRENCY);
  const maxConcurrency = positiveInt(
    'maxConcurrency',
    o.maxConcurrency ?? (envConc === undefined ? undefined : Number(envConc)),
    4,
  );
  const timeoutMs = positiveInt('timeoutMs', o.timeoutMs, 120_000, ' of milliseconds');
  const r = o.retry ?? {};
  if (typeof r !== 'object' || r === null)
    bad('retry', '{ maxRetries?, baseDelayMs?, maxDelayMs?, maxRetryAfterMs? }', r);
  const maxRetries = nonNegativeInt('retry.maxRetries', r.maxRetries, 2);
  const baseDelayMs = nonNegativeInt('retry.baseDelayMs', r.baseDelayMs, 500);
  const maxDelayMs = nonNegativeInt('retry.maxDelayMs', r.maxDelayMs, 8000);
  const maxRetryAfterMs = nonNegativeInt('retry.maxRetryAfterMs', r.maxRetryAfterMs, 60_000);

  const prices: Prices[] = [];
  if (o.prices !== undefined) prices.push(loadPrices(o.prices, `${WHERE}: prices`));
  const envPrices = nonEmpty(env.CROSSCHECK_LLM_PRICES);
  if (envPrices !== undefined) prices.push(loadPrices(envPrices, 'CROSSCHECK_LLM_PRICES'));
  prices.push(BUILTIN_PRICES);

  const headers = o.headers ?? {};
  if (
    typeof headers !== 'object' ||
    headers === null ||
    !Object.values(headers).every((v) => typeof v === 'string')
  )
    bad('headers', 'an object of strings', headers);

  const maxReplyBytes = positiveInt('maxReplyBytes', o.maxReplyBytes, 8 * 1024 * 1024, ' of bytes');
  if (o.onWarning !== undefined && typeof o.onWarning !== 'function')
    bad('onWarning', 'a function', o.onWarning);
  const onWarning = o.onWarning ?? ((m: string) => process.emitWarning(m, 'CrosscheckLlmWarning'));

  return Object.freeze({
    __proto__: null,
    model: model as string,
    baseURL: baseURL.replace(/\/+$/, ''),
    apiKey,
    provider,
    sampling: readSampling(o.sampling),
    strategy,
    cacheDir,
    cacheMode,
    cacheModeSource,
    maxConcurrency,
    timeoutMs,
    maxRetries,
    baseDelayMs,
    maxDelayMs,
    maxRetryAfterMs,
    prices,
    headers: { ...headers },
    maxReplyBytes,
    onWarning,
  }) as ResolvedLlmOptions;
};
