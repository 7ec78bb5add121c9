import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { SourceCandidate } from '../candidates/index.ts';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import type { Task } from '../task/index.ts';
import { type CacheEntry, ENTRY_SCHEMA, ENTRY_VERSION, entryText } from './cache/entry.ts';
import { modelDir } from './cache/layout.ts';
import { findNearest, nearestRecordedModel, recordedModels, recordedSamples } from './cache/nearest.ts';
import { type CacheStore, type EntryAddress, isTransient, requestFileText, storeFor } from './cache/store.ts';
import { Limiter } from './limiter.ts';
import { replayMiss } from './miss.ts';
import { OPENAI_URL, type ResolvedLlmOptions, readSampling, resolveLlmOptions } from './options.ts';
import { priceOf } from './prices.ts';
import {
  canonicalJson,
  type KeyObject,
  keyObject,
  requestBody,
  requestKey,
  seedFor,
  sortedCopy,
} from './request.ts';
import { decide } from './retry.ts';
import { sampleWith } from './sample-candidates.ts';
import { AttemptFailure, attempt, clientFor, type Reply, type ReplyChoice } from './transport.ts';
import type {
  ChatRequest,
  Completion,
  Llm,
  LlmOptions,
  LlmUsage,
  Price,
  Purpose,
  SampleCandidatesOptions,
} from './types.ts';
import { addUsage, apportion, costOf, createLedger, usageFrom } from './usage.ts';

const PURPOSES: readonly Purpose[] = [
  'codegen',
  'scenarios',
  'properties',
  'inputs',
  'repair',
  'judge',
  'baseline',
  'other',
];

/** In-process single flight, shared by every client of a worker: one draw per (dir, mode, key, sample). */
const flights = new Map<string, Promise<Completion>>();

/** A request made ready: its key object, canonical text and key. */
interface Prepared {
  readonly keyObject: KeyObject;
  readonly canonical: string;
  readonly key: string;
  readonly purpose: Purpose;
  readonly label: string | undefined;
  /** The function a codegen request asks for: a miss looks for the nearest among its requests. */
  readonly task: string | undefined;
  /** Its cache directory, computed once for all its samples. */
  dir?: string;
  /** Its `request.json` text, computed once for all its samples. */
  requestText?: string;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The signal the client's own work listens to, one per caller's signal: it aborts with the
 * caller's, which carries a single listener however many draws are in flight (each request,
 * retry wait and SDK call adds one to the signal it gets). Listening to the caller's signal
 * directly made more than ten concurrent draws print Node's listener-leak warning.
 */
const linkedSignals = new WeakMap<AbortSignal, AbortSignal>();
const ownSignal = (signal: AbortSignal | undefined, where: string): AbortSignal | undefined => {
  if (signal === undefined) return undefined;
  // Duck-typed: a test environment (jsdom) has an AbortSignal class of its own.
  const s = signal as Partial<AbortSignal> | null;
  if (
    typeof s !== 'object' ||
    s === null ||
    typeof s.addEventListener !== 'function' ||
    typeof s.aborted !== 'boolean'
  )
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`signal\` must be an AbortSignal (new AbortController().signal), got ${describeValue(signal)}.`,
      { where },
    );
  let own = linkedSignals.get(signal);
  if (own === undefined) {
    const controller = new AbortController();
    // Many listeners on this one are by design: one per draw in flight.
    setMaxListeners(0, controller.signal);
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    own = controller.signal;
    linkedSignals.set(signal, own);
  }
  return own;
};

const aborted = (where: string, cause?: unknown) =>
  new CrosscheckError('ABORTED', `${where}: aborted by the caller's signal.`, { where, cause });

/** A client over one endpoint and model, with its cache, limiter and ledger. */
class LlmClient implements Llm {
  readonly #o: ResolvedLlmOptions;
  readonly #store: CacheStore;
  readonly #limiter: Limiter;
  readonly #ledger = createLedger();
  #client: ReturnType<typeof clientFor> | undefined;
  readonly #warned = new Set<string>();
  readonly #stats = { requests: 0, retries: 0, retriesByReason: {} as Record<string, number> };
  /** Failed draws so far: each gets a ledger id of its own. */
  #failures = 0;

  constructor(o: ResolvedLlmOptions) {
    this.#o = o;
    this.#store = storeFor(o.cacheDir, o.cacheMode, o.onWarning);
    this.#limiter = new Limiter(o.maxConcurrency);
  }

  get model() {
    return this.#o.model;
  }
  get provider() {
    return this.#o.provider;
  }
  get baseURL() {
    return this.#o.baseURL;
  }
  get sampling() {
    return this.#o.sampling;
  }
  get cacheMode() {
    return { mode: this.#o.cacheMode, source: this.#o.cacheModeSource, dir: this.#o.cacheDir };
  }
  get ledger() {
    return this.#ledger;
  }
  get stats() {
    return this.#stats;
  }

  /** What JSON.stringify and console.log show: never the key. */
  toJSON() {
    return { model: this.model, provider: this.provider, baseURL: this.baseURL, cacheMode: this.cacheMode };
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `Llm ${JSON.stringify(this.toJSON())}`;
  }

  readonly #prices = new Map<string | null, Price | undefined>();

  /** The price of the served model (a dated snapshot name), else of the requested one. */
  #price(served: string | null): Price | undefined {
    if (!this.#prices.has(served)) {
      const p =
        (served === null ? undefined : priceOf(this.#o.prices, served)) ??
        priceOf(this.#o.prices, this.#o.model);
      this.#prices.set(served, p);
    }
    return this.#prices.get(served);
  }

  #warnOnce(id: string, message: string): void {
    if (this.#warned.has(id)) return;
    this.#warned.add(id);
    this.#o.onWarning(message);
  }

  #prepare(request: ChatRequest, where: string): Prepared {
    if (typeof request !== 'object' || request === null)
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: expected a request { messages, sampling?, purpose? }, got ${describeValue(request)}.`,
        { where },
      );
    const { messages } = request;
    if (
      !Array.isArray(messages) ||
      messages.length === 0 ||
      !messages.every(
        (m) =>
          typeof m === 'object' &&
          m !== null &&
          ['system', 'user', 'assistant'].includes(m.role) &&
          typeof m.content === 'string',
      )
    ) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`messages\` must be a non-empty array of { role: 'system' | 'user' | 'assistant', content: string }, got ${describeValue(messages)}.`,
        { where },
      );
    }
    const purpose = request.purpose ?? 'other';
    if (!PURPOSES.includes(purpose))
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`purpose\` must be one of ${PURPOSES.join(', ')}, got ${describeValue(purpose)}.`,
        { where },
      );
    const sampling = { ...this.#o.sampling, ...readSampling(request.sampling, 'request.sampling') };
    const ko = keyObject(this.#o.provider, this.#o.model, messages, sampling);
    const canonical = canonicalJson(ko);
    return {
      keyObject: sortedCopy(JSON.parse(canonical)) as KeyObject,
      canonical,
      key: requestKey(canonical),
      purpose,
      label: typeof request.label === 'string' ? request.label : undefined,
      task: typeof request.task === 'string' && request.task !== '' ? request.task : undefined,
    };
  }

  #address(p: Prepared, sample: number): EntryAddress {
    p.dir ??= this.#store.dir({
      provider: this.#o.provider,
      model: this.#o.model,
      key: p.key,
      sample: 0,
      canonical: p.canonical,
      keyObject: p.keyObject,
    });
    p.requestText ??= requestFileText(p.keyObject);
    return {
      dir: p.dir,
      requestText: p.requestText,
      provider: this.#o.provider,
      model: this.#o.model,
      key: p.key,
      sample,
      canonical: p.canonical,
      keyObject: p.keyObject,
    };
  }

  /**
   * A completion of `entry`, counted in the ledger. `paid` is the entry of the request this
   * process sent for the sample when the text is another's (the recorded one won the publish):
   * the sample is then live, with the tokens and cost of that request, never a free replay.
   */
  #completion(
    p: Prepared,
    sample: number,
    entry: CacheEntry,
    cached: boolean,
    file: string | null,
    paid?: CacheEntry,
  ): Completion {
    const charged = paid ?? entry;
    const live = paid !== undefined || !cached;
    const costUsd = costOf(charged.usage, this.#price(charged.meta.model));
    const retries = live ? charged.meta.retries : 0;
    const c: Completion = {
      text: entry.reply.lines.join('\n'),
      finishReason: entry.reply.finishReason,
      usage: charged.usage,
      cached: !live,
      key: p.key,
      sample,
      model: this.#o.model,
      servedModel: entry.meta.model,
      provider: this.#o.provider,
      purpose: p.purpose,
      costUsd,
      retries,
      file,
    };
    this.#ledger.add({
      id: `${p.key}/${sample}`,
      model: this.#o.model,
      provider: this.#o.provider,
      purpose: p.purpose,
      live,
      prompt: charged.usage.prompt,
      cachedPrompt: charged.usage.cachedPrompt,
      completion: charged.usage.completion,
      costUsd,
      retries,
    });
    return c;
  }

  /**
   * A draw whose request left the process and whose reply could not be used: counted as failed,
   * with the tokens its bad replies reported (null when none did), under an id of its own, so a
   * later draw of the same sample is counted too.
   */
  #failedDraw(p: Prepared, sample: number, usage: LlmUsage | null, attempts: number): void {
    const u = usage ?? {
      prompt: null,
      cachedPrompt: null,
      completion: null,
      reasoning: null,
      apportioned: false,
    };
    this.#ledger.add({
      id: `${p.key}/${sample}/failed/${++this.#failures}`,
      model: this.#o.model,
      provider: this.#o.provider,
      purpose: p.purpose,
      live: true,
      failed: true,
      prompt: u.prompt,
      cachedPrompt: u.cachedPrompt,
      completion: u.completion,
      costUsd: costOf(u, this.#price(null)),
      retries: attempts - 1,
    });
  }

  async #miss(p: Prepared, sample: number): Promise<never> {
    const a = this.#address(p, sample);
    const file = this.#store.path(a);
    const root = modelDir(this.#o.cacheDir, this.#o.provider, this.#o.model);
    const nearest = await findNearest(root, p.keyObject, p.key, p.task);
    const s = p.keyObject;
    const params = [
      `${s.messages.length} message${s.messages.length === 1 ? '' : 's'}`,
      s.temperature !== undefined ? `temperature ${s.temperature}` : null,
      s.max_tokens !== undefined ? `max_tokens ${s.max_tokens}` : null,
      s.seed !== undefined ? `seed ${s.seed}` : null,
    ].filter(Boolean);
    const setBy = {
      env: 'set by CROSSCHECK_LLM_CACHE',
      option: 'set by the cache.mode option',
      ci: 'set by CI',
      default: 'the default',
    }[this.#o.cacheModeSource];
    const of = `${this.#o.model} at ${this.#o.provider}`;
    let near: string;
    if (nearest.best !== null) {
      near = `  nearest:   ${nearest.best.key}${p.task ? ` (also for \`${p.task}\`)` : ''} differs in ${nearest.best.differences.join('; ') || 'nothing the key shows'}`;
    } else if (nearest.scanned > 0 && p.task !== undefined) {
      // Other requests of this model are recorded, none for this task: it was never recorded
      // (a run limited to fewer tasks), not a prompt that drifted.
      near = `  nearest:   no recorded request of ${of} names \`${p.task}\`; ${nearest.scanned} request${nearest.scanned === 1 ? ' of other tasks is' : 's of other tasks are'} recorded`;
    } else if (nearest.scanned > 0) {
      near = `  nearest:   none of the ${nearest.scanned} recorded requests of ${of} has a readable request.json`;
    } else {
      const models = await recordedModels(join(this.#o.cacheDir, 'v1'));
      const meant = await nearestRecordedModel(join(this.#o.cacheDir, 'v1'), this.#o.provider, this.#o.model);
      near =
        models.length > 0
          ? `  nearest:   nothing is recorded for ${of}; recorded models by provider: ${models.join('; ')}. ${meant ?? 'Is the model name spelt as when it was recorded?'}`
          : `  nearest:   nothing is recorded in ${this.#o.cacheDir} (is it the committed cache directory?)`;
    }
    const factLines = [
      `no recorded reply for sample ${sample} of this request (cache mode replay-only, ${setBy}).`,
      `  purpose:   ${p.purpose}${p.label ? ` for ${p.label}` : ''}`,
      `  model:     ${of}`,
      `  request:   ${p.key} (${params.join(', ')})`,
      `  looked in: ${file}`,
      `  recorded:  ${await recordedSamples(this.#store.dir(a))} of this request`,
      near,
    ];
    const fix = [
      'Fix: record it where the model is reachable: run the same command with',
      '     CROSSCHECK_LLM_CACHE=read-write (and the API key), e.g.',
      '       CROSSCHECK_LLM_CACHE=read-write npx vitest run   then commit the cache directory.',
    ];
    throw replayMiss(factLines, fix, `llm cache ${file}`);
  }

  #sdk() {
    if (this.#o.apiKey === undefined && this.#o.baseURL === OPENAI_URL) {
      throw new CrosscheckError(
        'LLM_CONFIG',
        'A live call to OpenAI needs an API key: set CROSSCHECK_LLM_API_KEY or OPENAI_API_KEY (or pass `apiKey`), ' +
          'or replay recorded replies with CROSSCHECK_LLM_CACHE=replay-only.',
        { where: 'createLlm({ apiKey })' },
      );
    }
    this.#client ??= clientFor(this.#o);
    this.#client.catch(() => {
      this.#client = undefined;
    });
    return this.#client;
  }

  /** One live request (n choices), with our retry policy; returns the reply and the retries it took. */
  async #live(
    p: Prepared,
    sample: number,
    n: number,
    signal?: AbortSignal,
  ): Promise<{ reply: Reply; retries: number; latencyMs: number }> {
    const client = await this.#sdk();
    const body = requestBody(p.keyObject, sample, n);
    const headers = {
      'x-crosscheck-sample': String(sample),
      'x-crosscheck-purpose': p.purpose,
      ...(n > 1 ? { 'x-crosscheck-sample-base': String(sample) } : {}),
    };
    let retries = 0;
    // Tokens reported by bad replies: spent, though no sample came of them.
    let spent: LlmUsage | null = null;
    for (let attemptNo = 1; ; attemptNo++) {
      if (signal?.aborted) throw aborted('llm.chat', signal.reason);
      const started = Date.now();
      try {
        const reply = await this.#limiter.run(() => {
          this.#stats.requests++;
          return attempt(client, body, headers, signal);
        });
        return { reply, retries, latencyMs: Date.now() - started };
      } catch (error) {
        if (!(error instanceof AttemptFailure)) throw error;
        if (error.reason === 'abort') throw aborted('llm.chat', signal?.reason);
        if (error.usage !== null && error.usage !== undefined)
          spent = addUsage(spent, usageFrom(error.usage));
        const d = decide(error, attemptNo, this.#o, p.key, sample);
        if (!d.retry) {
          this.#failedDraw(p, sample, spent, attemptNo);
          if (d.quota) {
            throw new CrosscheckError(
              'LLM_QUOTA',
              `${this.#o.model} at ${this.#o.provider}: the account's quota is exhausted (429 insufficient_quota); retrying cannot help. ` +
                'Add credit or use another key; recorded replies still replay with CROSSCHECK_LLM_CACHE=replay-only.',
              { where: 'llm.chat', cause: error },
            );
          }
          const remaining = ['requests', 'tokens']
            .map((k) => error.headers?.get(`x-ratelimit-remaining-${k}`))
            .filter((v) => v != null);
          const code = error.reason === 'bad-reply' ? 'LLM_BAD_REPLY' : 'LLM_REQUEST_FAILED';
          throw new CrosscheckError(
            code,
            `${this.#o.model} at ${this.#o.baseURL}, sample ${sample}${n > 1 ? `–${sample + n - 1}` : ''} of ${p.label ?? `request ${p.key}`}: ${error.message}` +
              `${error.status !== null ? ` (status ${error.status}${error.code ? `, ${error.code}` : ''})` : ''}` +
              `${error.requestId ? `, request id ${error.requestId}` : ''}; ${attemptNo} attempt${attemptNo === 1 ? '' : 's'}` +
              `${remaining.length ? `; rate limit remaining: ${remaining.join(', ')}` : ''}. Nothing was cached.`,
            { where: 'llm.chat', cause: error },
          );
        }
        retries++;
        this.#stats.retries++;
        this.#stats.retriesByReason[d.reason] = (this.#stats.retriesByReason[d.reason] ?? 0) + 1;
        if (d.fromServer && error.status === 429) this.#limiter.pause(d.delayMs);
        try {
          await sleep(d.delayMs, signal);
        } catch (cause) {
          throw aborted('llm.chat', cause);
        }
      }
    }
  }

  #entry(
    p: Prepared,
    sample: number,
    choice: ReplyChoice,
    usage: LlmUsage,
    reply: Reply,
    retries: number,
    latencyMs: number,
  ): CacheEntry {
    return {
      schema: ENTRY_SCHEMA,
      version: ENTRY_VERSION,
      key: p.key,
      sample,
      reply: {
        lines: choice.text.split('\n'),
        finishReason: choice.finishReason,
        refusal: choice.refusal,
        logprobs: choice.logprobs,
      },
      usage,
      meta: {
        model: reply.servedModel,
        systemFingerprint: reply.systemFingerprint,
        seed: p.keyObject.seed === undefined ? null : seedFor(p.keyObject.seed, sample),
        requestId: reply.requestId,
        recordedAt: new Date().toISOString(),
        latencyMs,
        retries,
      },
    };
  }

  /** Records an entry; when another writer was first, the recorded one is what everyone uses. */
  async #record(p: Prepared, sample: number, entry: CacheEntry): Promise<Completion> {
    const a = this.#address(p, sample);
    const mode = this.#o.cacheMode;
    if (mode === 'off') return this.#completion(p, sample, entry, false, null);
    const won = await this.#store.write(a, entryText(entry));
    if (!won) {
      // Another writer's entry is what everyone replays; the request this process sent is still paid.
      const theirs = await this.#store.read(a);
      if (theirs) return this.#completion(p, sample, theirs, true, this.#store.path(a), entry);
    }
    return this.#completion(p, sample, entry, false, this.#store.path(a));
  }

  #one(p: Prepared, sample: number, signal?: AbortSignal): Promise<Completion> {
    if (!Number.isSafeInteger(sample) || sample < 0)
      throw new CrosscheckError(
        'INVALID_OPTION',
        `llm.chat: \`sample\` must be an integer >= 0, got ${describeValue(sample)}.`,
        { where: 'llm.chat({ sample })' },
      );
    const id = `${this.#o.cacheMode}\0${this.#o.cacheDir}\0${p.key}\0${sample}`;
    // Mode off shares nothing: every call is a new draw.
    const existing = this.#o.cacheMode === 'off' ? undefined : flights.get(id);
    if (existing) return existing.then((c) => this.#completion(p, sample, this.#asEntry(c), true, c.file));
    const run = this.#drawOne(p, sample, signal);
    if (this.#o.cacheMode !== 'off') {
      flights.set(id, run);
      run.then(
        () => flights.delete(id),
        () => flights.delete(id),
      );
    }
    return run;
  }

  /** A completion back as an entry, for a second in-process caller of the same sample. */
  #asEntry(c: Completion): CacheEntry {
    return {
      schema: ENTRY_SCHEMA,
      version: ENTRY_VERSION,
      key: c.key,
      sample: c.sample,
      reply: { lines: c.text.split('\n'), finishReason: c.finishReason, refusal: null, logprobs: null },
      usage: c.usage,
      meta: {
        model: c.servedModel,
        systemFingerprint: null,
        seed: null,
        requestId: null,
        recordedAt: '',
        latencyMs: 0,
        retries: 0,
      },
    };
  }

  async #drawOne(p: Prepared, sample: number, signal?: AbortSignal): Promise<Completion> {
    const a = this.#address(p, sample);
    const found = await this.#store.read(a);
    if (found) return this.#completion(p, sample, found, true, this.#store.path(a));
    if (this.#o.cacheMode === 'replay-only') return this.#miss(p, sample);
    const staleMs = this.#o.timeoutMs * (this.#o.maxRetries + 1) + 60_000;
    let got: Awaited<ReturnType<CacheStore['acquire']>>;
    try {
      got = await this.#store.acquire(a, staleMs, signal);
    } catch (error) {
      // Aborted while another process held the entry's lock.
      if (signal?.aborted) throw aborted('llm.chat', signal.reason);
      throw error;
    }
    if ('entry' in got) return this.#completion(p, sample, got.entry, true, this.#store.path(a));
    try {
      const { reply, retries, latencyMs } = await this.#live(p, sample, 1, signal);
      const choice = reply.choices[0] as ReplyChoice;
      return await this.#record(
        p,
        sample,
        this.#entry(p, sample, choice, usageFrom(reply.usage), reply, retries, latencyMs),
      );
    } finally {
      await got.release();
    }
  }

  chat(request: ChatRequest, opts: { sample?: number; signal?: AbortSignal } = {}): Promise<Completion> {
    try {
      const p = this.#prepare(request, 'llm.chat(request)');
      return this.#one(p, opts.sample ?? 0, ownSignal(opts.signal, 'llm.chat(request, { signal })'));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async draw(
    request: ChatRequest,
    opts: { samples: number; start?: number; signal?: AbortSignal },
  ): Promise<Completion[]> {
    const where = 'llm.draw(request, { samples, start })';
    const p = this.#prepare(request, where);
    const samples = opts?.samples;
    const start = opts?.start ?? 0;
    if (!Number.isSafeInteger(samples) || samples < 0)
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`samples\` must be an integer >= 0, got ${describeValue(samples)}.`,
        { where },
      );
    if (!Number.isSafeInteger(start) || start < 0)
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`start\` must be an integer >= 0, got ${describeValue(start)}.`,
        { where },
      );
    if (samples > 1 && p.keyObject.temperature === 0)
      this.#warnOnce(
        `t0:${p.key}`,
        `crosscheck: ${samples} samples at temperature 0 are likely identical; incoherence would be 0 by construction.`,
      );
    const indexes = Array.from({ length: samples }, (_, i) => start + i);
    const signal = ownSignal(opts.signal, where);
    if (this.#o.strategy === 'server-n' && samples > 1 && this.#o.cacheMode !== 'replay-only') {
      return this.#drawServerN(p, indexes, signal);
    }
    return this.#drawRepeat(p, indexes, signal);
  }

  /**
   * `repeat`: recorded samples are read here and now, in one synchronous pass (a warm cache is
   * read at tens of thousands of samples per second, where a promise chain per sample doubled
   * the cost); the rest, and any sample whose read hit a transient file error, take the
   * single-flight path of {@link LlmClient.#one}.
   */
  async #drawRepeat(p: Prepared, indexes: number[], signal?: AbortSignal): Promise<Completion[]> {
    const out: (Completion | Promise<Completion>)[] = [];
    let pending = false;
    let listing: ReadonlySet<string> | undefined;
    for (const i of indexes) {
      const a = this.#address(p, i);
      let found: CacheEntry | null = null;
      try {
        // One listing for a draw of several samples; a single sample is probed.
        if (listing === undefined && indexes.length > 1) listing = this.#store.listing(a);
        found = this.#store.readSync(a, listing);
      } catch (error) {
        if (!isTransient(error)) {
          // The draws already started settle unobserved: this error is the answer.
          for (const o of out) if (o instanceof Promise) o.catch(() => undefined);
          throw error;
        }
      }
      if (found) out.push(this.#completion(p, i, found, true, this.#store.path(a)));
      else {
        out.push(this.#one(p, i, signal));
        pending = true;
      }
    }
    return pending ? Promise.all(out) : (out as Completion[]);
  }

  /**
   * `server-n`: the missing samples in one request with `n`; choices fill the missing indexes in
   * order, and a server that returns fewer (Ollama, llama.cpp) has the rest drawn one by one.
   */
  async #drawServerN(p: Prepared, indexes: number[], signal?: AbortSignal): Promise<Completion[]> {
    const out = new Map<number, Completion>();
    const missing: number[] = [];
    for (const i of indexes) {
      const a = this.#address(p, i);
      const found = await this.#store.read(a);
      if (found) out.set(i, this.#completion(p, i, found, true, this.#store.path(a)));
      else missing.push(i);
    }
    if (missing.length > 0) {
      const first = missing[0] as number;
      const { reply, retries, latencyMs } = await this.#live(p, first, missing.length, signal);
      const k = Math.min(reply.choices.length, missing.length);
      if (reply.choices.length < missing.length) {
        this.#warnOnce(
          `n:${this.#o.provider}`,
          `crosscheck: ${this.#o.provider} ignored n=${missing.length} and returned ${reply.choices.length} choice${reply.choices.length === 1 ? '' : 's'}; drew the rest one by one (strategy 'repeat' avoids the wasted request).`,
        );
      }
      const usages = apportion(usageFrom(reply.usage), k);
      for (let j = 0; j < k; j++) {
        const i = missing[j] as number;
        out.set(
          i,
          await this.#record(
            p,
            i,
            this.#entry(
              p,
              i,
              reply.choices[j] as ReplyChoice,
              usages[j] as LlmUsage,
              reply,
              retries,
              latencyMs,
            ),
          ),
        );
      }
      await Promise.all(missing.slice(k).map(async (i) => out.set(i, await this.#one(p, i, signal))));
    }
    return indexes.map((i) => out.get(i) as Completion);
  }

  sampleCandidates(task: Task, opts: SampleCandidatesOptions): Promise<SourceCandidate[]> {
    return sampleWith(this, task, opts);
  }
}

/**
 * An LLM client over any OpenAI-compatible endpoint (Chat Completions), with a committed
 * record/replay cache, sampling with sample indexes, retries, a concurrency limit and a usage
 * ledger. Nothing is loaded or sent until the first live call; a replay needs neither the
 * `openai` package nor a key.
 * @public
 */
export const createLlm = (options?: LlmOptions): Llm => {
  return new LlmClient(resolveLlmOptions(options, process.env));
};
