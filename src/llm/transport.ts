import { CrosscheckError } from '../errors/index.ts';
import { boundedFetch, ReplyTooLarge } from './node-fetch.ts';
import type { ResolvedLlmOptions } from './options.ts';
import type { LlmJson } from './types.ts';

/** One choice of a reply. */
export interface ReplyChoice {
  readonly text: string;
  readonly finishReason: string | null;
  readonly refusal: string | null;
  readonly logprobs: LlmJson;
}

/** A well-formed reply to one HTTP attempt. */
export interface Reply {
  readonly choices: readonly ReplyChoice[];
  readonly usage: unknown;
  readonly servedModel: string | null;
  readonly systemFingerprint: string | null;
  readonly requestId: string | null;
}

/** Why an attempt failed, classified for the retry policy. */
export class AttemptFailure extends Error {
  constructor(
    /** `connection`, `timeout`, `status`, `bad-reply`, `abort`. */
    readonly reason: 'connection' | 'timeout' | 'status' | 'bad-reply' | 'abort',
    message: string,
    readonly status: number | null = null,
    readonly code: string | null = null,
    readonly headers: Headers | null = null,
    readonly requestId: string | null = null,
    /** The reply's `usage`, when a bad reply still reported one: its tokens were spent. */
    readonly usage: unknown = null,
  ) {
    super(message);
  }
}

type OpenAIModule = typeof import('openai');
type OpenAIClient = import('openai').OpenAI;

let openaiModule: Promise<OpenAIModule> | undefined;

/**
 * The `openai` package, loaded on the first live call only: a replay needs neither the package
 * nor a key. The CommonJS build uses `require`, since Jest's default runtime cannot `import()`.
 */
const loadOpenAI = (): Promise<OpenAIModule> => {
  openaiModule ??= (async () => {
    try {
      // biome-ignore lint/suspicious/noExplicitAny: `require` exists only in the CommonJS build.
      const req = (globalThis as any).require ?? (typeof require === 'function' ? require : undefined);
      return (req ? req('openai') : await import('openai')) as OpenAIModule;
    } catch (error) {
      openaiModule = undefined;
      throw new CrosscheckError(
        'RUNTIME_MISSING',
        "crosscheck's LLM layer calls the model through the `openai` package, which is not installed: `npm i -D openai`. " +
          '(A replay from the cache needs neither the package nor a key.)',
        { where: 'createLlm', cause: error },
      );
    }
  })();
  return openaiModule;
};

/** The SDK client of one `Llm`, created on first use. Its own retries are off: ours apply. */
export const clientFor = async (o: ResolvedLlmOptions): Promise<OpenAIClient> => {
  const { OpenAI } = await loadOpenAI();
  return new OpenAI({
    apiKey: o.apiKey ?? 'sk-no-key',
    baseURL: o.baseURL,
    maxRetries: 0,
    timeout: o.timeoutMs,
    fetch: boundedFetch(o.maxReplyBytes, o.maxConcurrency),
    defaultHeaders: { ...o.headers },
    // The SDK must not read OPENAI_ORG_ID etc. behind our back; everything it sends is in the key or the options.
    logLevel: 'off', // OPENAI_LOG=debug would print requests; nothing of ours reaches a log.
    organization: null,
    project: null,
  });
};

const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

/** Checks the shape of a Chat Completions reply; a bad one is a retryable failure, never a cache entry. */
const validate = (data: unknown, wanted: number, requestId: string | null): Reply => {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new AttemptFailure(
      'bad-reply',
      typeof data === 'string'
        ? `the server answered with a non-JSON body (${JSON.stringify(data.slice(0, 80))}…)`
        : 'the server answered with no JSON object',
      null,
      null,
      null,
      requestId,
    );
  }
  const d = data as Record<string, unknown>;
  if (!Array.isArray(d.choices) || d.choices.length === 0) {
    throw new AttemptFailure('bad-reply', 'the reply has no `choices`', null, null, null, requestId, d.usage);
  }
  const choices: ReplyChoice[] = [];
  for (const c of d.choices.slice(0, wanted)) {
    const m = (c as { message?: Record<string, unknown> })?.message;
    if (
      typeof m !== 'object' ||
      m === null ||
      (m.content !== null && m.content !== undefined && typeof m.content !== 'string')
    ) {
      throw new AttemptFailure(
        'bad-reply',
        'a choice has no `message.content` string',
        null,
        null,
        null,
        requestId,
        d.usage,
      );
    }
    choices.push({
      text: typeof m.content === 'string' ? m.content : '',
      finishReason: str((c as Record<string, unknown>).finish_reason),
      refusal: str(m.refusal),
      logprobs: ((c as Record<string, unknown>).logprobs ?? null) as LlmJson,
    });
  }
  return {
    choices,
    usage: d.usage,
    servedModel: str(d.model),
    systemFingerprint: str(d.system_fingerprint),
    requestId,
  };
};

/** One HTTP attempt through the SDK; throws an {@link AttemptFailure}. */
export const attempt = async (
  client: OpenAIClient,
  body: Record<string, unknown>,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<Reply> => {
  const mod = await loadOpenAI();
  const wanted = typeof body.n === 'number' ? body.n : 1;
  let data: unknown;
  let requestId: string | null = null;
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the body is built from validated options; extras are the user's.
    const res = await client.chat.completions.create(body as any, { headers, signal }).withResponse();
    data = res.data;
    requestId = res.request_id;
  } catch (error) {
    if (error instanceof mod.APIUserAbortError || signal?.aborted)
      throw new AttemptFailure('abort', 'aborted');
    if (error instanceof mod.APIConnectionTimeoutError)
      throw new AttemptFailure('timeout', 'the attempt timed out');
    if (error instanceof mod.APIConnectionError) {
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof ReplyTooLarge) throw new AttemptFailure('bad-reply', cause.message);
      throw new AttemptFailure(
        'connection',
        `connection failed (${(cause as Error | undefined)?.message ?? error.message})`,
      );
    }
    if (error instanceof mod.APIError) {
      const e = error as InstanceType<OpenAIModule['APIError']>;
      const body = e.error as Record<string, unknown> | undefined;
      const code = str(e.code) ?? str(body?.code) ?? str(e.type) ?? str(body?.type);
      throw new AttemptFailure(
        'status',
        e.message,
        typeof e.status === 'number' ? e.status : null,
        code,
        (e.headers as Headers | undefined) ?? null,
        e.requestID ?? null,
      );
    }
    if (error instanceof SyntaxError)
      throw new AttemptFailure('bad-reply', `the reply is not valid JSON (${error.message})`);
    if (error instanceof ReplyTooLarge) throw new AttemptFailure('bad-reply', error.message);
    throw new AttemptFailure(
      'connection',
      `the request failed (${(error as Error)?.message ?? String(error)})`,
    );
  }
  return validate(data, wanted, requestId);
};
