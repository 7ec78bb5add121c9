import type { ServerResponse } from 'node:http';
import {
  approximateUsage,
  completionBody,
  type Loopback,
  listen,
  type ReceivedRequest,
  received,
  sendError,
  sendJson,
} from './http.ts';

/** A fault a rule can inject instead of a reply. @public */
export type ScriptedFault =
  /** Destroys the connection without answering (ECONNRESET on the client). */
  | 'reset'
  /** Accepts the request and never answers (the client's timeout must end it). */
  | 'hang'
  /** 200 with a body that is not JSON, declared as JSON. */
  | 'malformed-json'
  /** 200 with `choices: []`. */
  | 'empty-choices'
  /** 200 with a plain-text body. */
  | 'wrong-content-type'
  /** 200 with a 10 MB JSON reply. */
  | 'huge';

/** What a rule's reply function is given. @public */
export interface ScriptContext {
  /** Requests this server received before this one (0 for the first). */
  readonly count: number;
  /** Times this rule matched before. */
  readonly uses: number;
}

/** One rule of a script: tried in order; the first that matches (and has uses left) answers. @public */
export interface ScriptedRule {
  /** Which requests it answers; all when absent. */
  match?:
    | { model?: string; lastUserIncludes?: string; purpose?: string; sample?: number }
    | ((req: ReceivedRequest) => boolean);
  /** The assistant's content (one per choice; a function is called per choice). */
  reply?: string | ((req: ReceivedRequest, ctx: ScriptContext & { choice: number }) => string);
  /** An HTTP error in OpenAI's shape instead of a reply. */
  status?: number;
  /** The error body's `code` and `type` (429 `insufficient_quota`, ...). */
  error?: { message?: string; type?: string; code?: string };
  /** Response headers (`retry-after-ms`, `x-should-retry`, ...). */
  headers?: Readonly<Record<string, string>>;
  fault?: ScriptedFault;
  /** Wait before answering (a delay past the client's timeout is a timeout). */
  delayMs?: number;
  /** @defaultValue 'stop' */
  finishReason?: string;
  /** How many requests the rule answers before it runs out. @defaultValue unlimited */
  times?: number;
}

/** Options of {@link startScriptedLlmServer}. @public */
export interface ScriptedServerOptions {
  rules?: readonly ScriptedRule[];
  /**
   * A request no rule answers: `error` (400 naming the request), `echo` (the last user message
   * back) or `counter` (`reply <count>`: every request a different reply).
   * @defaultValue 'error'
   */
  unmatched?: 'error' | 'echo' | 'counter';
  /** One choice whatever `n` says, like Ollama and llama.cpp. @defaultValue false */
  ignoreN?: boolean;
  /** `approximate` (⌈chars/4⌉ per side), `none` (no usage field) or a function. @defaultValue 'approximate' */
  usage?:
    | 'approximate'
    | 'none'
    | ((req: ReceivedRequest, texts: readonly string[]) => Record<string, unknown>);
  /** The model name the server reports. @defaultValue the requested model */
  servedModel?: string;
}

/** A running scripted server. @public */
export interface ScriptedLlmServer extends Loopback {
  /** Every request received, in order (chat completions and model lists). */
  readonly requests: readonly ReceivedRequest[];
  /** Chat completion requests only. */
  readonly completions: () => readonly ReceivedRequest[];
  /** Most requests this server held open at once (checks a client's concurrency limit). */
  readonly peakInFlight: () => number;
}

const matches = (rule: ScriptedRule, req: ReceivedRequest): boolean => {
  const m = rule.match;
  if (m === undefined) return true;
  if (typeof m === 'function') return m(req);
  return (
    (m.model === undefined || m.model === req.model) &&
    (m.lastUserIncludes === undefined || req.lastUser.includes(m.lastUserIncludes)) &&
    (m.purpose === undefined || m.purpose === req.purpose) &&
    (m.sample === undefined || m.sample === req.sample)
  );
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const fault = (res: ServerResponse, f: ScriptedFault): void => {
  switch (f) {
    case 'reset':
      res.socket?.destroy();
      return;
    case 'hang':
      return; // never answers; close() ends the socket
    case 'malformed-json': {
      const text = '{"id": "chatcmpl-broken", "choices": [{"message": {"content": "trunc';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    case 'empty-choices':
      sendJson(res, 200, { id: 'chatcmpl-empty', object: 'chat.completion', model: 'x', choices: [] });
      return;
    case 'wrong-content-type': {
      const text = '<html><body>502 Bad Gateway</body></html>';
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    case 'huge': {
      const content = 'x'.repeat(10 * 1024 * 1024);
      sendJson(res, 200, completionBody('x', [content], null));
      return;
    }
  }
};

/**
 * A scripted OpenAI-compatible server on 127.0.0.1 (real `node:http`): rules answer requests in
 * order and can inject faults, so an LLM pipeline is tested through its real transport offline.
 * `POST /v1/chat/completions` (non-streaming) and `GET /v1/models`.
 * @public
 */
export const startScriptedLlmServer = async (
  options: ScriptedServerOptions = {},
): Promise<ScriptedLlmServer> => {
  const rules = [...(options.rules ?? [])];
  const uses = rules.map(() => 0);
  const requests: ReceivedRequest[] = [];
  const unmatched = options.unmatched ?? 'error';
  let inFlight = 0;
  let peak = 0;
  const loop = await listen(async (httpReq, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.once('close', () => inFlight--);
    const req = await received(httpReq);
    const count = requests.length;
    requests.push(req);
    if (req.method === 'GET' && req.path.endsWith('/models')) {
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: options.servedModel ?? 'scripted', object: 'model', owned_by: 'crosscheck' }],
      });
      return;
    }
    if (req.method !== 'POST' || !req.path.endsWith('/chat/completions')) {
      sendError(res, 404, `Unknown path ${req.method} ${req.path}`, 'invalid_request_error', 'unknown_url');
      return;
    }
    if (req.body === null) {
      sendError(res, 400, 'The request body is not JSON.', 'invalid_request_error');
      return;
    }
    const i = rules.findIndex(
      (r, j) => (r.times === undefined || (uses[j] as number) < r.times) && matches(r, req),
    );
    const rule = i === -1 ? undefined : (rules[i] as ScriptedRule);
    const ruleUses = i === -1 ? 0 : (uses[i] as number);
    if (i !== -1) uses[i] = ruleUses + 1;
    if (rule?.delayMs) await sleep(rule.delayMs);
    if (rule?.fault) return fault(res, rule.fault);
    if (rule?.status !== undefined && rule.status >= 400) {
      sendError(
        res,
        rule.status,
        rule.error?.message ?? `scripted ${rule.status}`,
        rule.error?.type ??
          (rule.status === 429
            ? 'rate_limit_error'
            : rule.status >= 500
              ? 'server_error'
              : 'invalid_request_error'),
        rule.error?.code ?? null,
        rule.headers,
      );
      return;
    }
    if (rule === undefined && unmatched === 'error') {
      sendError(
        res,
        400,
        `No scripted rule matches this request (model ${JSON.stringify(req.model)}, purpose ${JSON.stringify(req.purpose)}, sample ${req.sample}, last user message ${JSON.stringify(req.lastUser.slice(0, 120))}).`,
        'invalid_request_error',
        'no_rule',
      );
      return;
    }
    const choices = options.ignoreN ? 1 : req.n;
    const texts = Array.from({ length: choices }, (_, choice) => {
      if (rule?.reply !== undefined) {
        return typeof rule.reply === 'function'
          ? rule.reply(req, { count, uses: ruleUses, choice })
          : rule.reply;
      }
      return unmatched === 'echo' ? req.lastUser : `reply ${count}${choices > 1 ? `.${choice}` : ''}`;
    });
    const usage =
      options.usage === 'none'
        ? null
        : typeof options.usage === 'function'
          ? options.usage(req, texts)
          : approximateUsage(req.messages, texts);
    sendJson(
      res,
      200,
      completionBody(options.servedModel ?? req.model ?? 'scripted', texts, usage, rule?.finishReason),
      rule?.headers,
    );
  });
  return {
    ...loop,
    requests,
    completions: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    peakInFlight: () => peak,
  };
};
