import { createHash } from 'node:crypto';
import { listModels, loadCandidates, loadTasks } from '../../bench/index.ts';
import { defineTask } from '../../task/index.ts';
import { codegenMessages } from '../prompts.ts';
import { canonicalJson } from '../request.ts';
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

/** Injected faults, decided by a hash of (seed, model, task, sample, attempt): reproducible. @public */
export interface ReplayFaults {
  /** Share of requests answered 429 with `retry-after-ms`. */
  rate429?: number;
  /** Share answered 500. */
  rate500?: number;
  /** Share whose connection is reset without an answer. */
  resetRate?: number;
  /** @defaultValue 1 */
  seed?: number;
  /** The `retry-after-ms` of a 429. @defaultValue 1 */
  retryAfterMs?: number;
}

/** Options of {@link startDatasetReplayServer}. @public */
export interface DatasetReplayOptions {
  /** A dataset directory: `tasks.jsonl.gz` and `candidates/<model>.jsonl.gz`. */
  data: string;
  faults?: ReplayFaults;
  /** Wrap each code in a line of prose before and after the fence (exercises extraction). @defaultValue false */
  prose?: boolean;
}

/** A running dataset-replay server. @public */
export interface DatasetReplayServer extends Loopback {
  /** Chat completion requests received (faulted ones included). */
  readonly requests: () => number;
  /** Faults injected, by kind. */
  readonly faults: () => { readonly '429': number; readonly '500': number; readonly reset: number };
  /** Models the dataset has. */
  readonly models: readonly string[];
}

const messagesHash = (messages: ReadonlyArray<{ role: string; content: string }>): string =>
  createHash('sha256')
    .update(canonicalJson(messages.map((m) => ({ role: m.role, content: m.content }))))
    .digest('hex');

const unit = (...parts: (string | number)[]): number =>
  createHash('sha256').update(parts.join('\0')).digest().readUInt32BE(0) / 2 ** 32;

/** A fence longer than any backtick run inside the code, so the code comes back byte for byte. */
export const fenced = (code: string, language = 'python'): string => {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code}\n${fence}`;
};

const commonPrefix = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * Serves a dataset's recorded model outputs over real HTTP, as an OpenAI-compatible server on
 * 127.0.0.1: the messages name the task (they must equal the task's `llm_messages`, or the
 * `difftrust` prompt built from it), `model` names a candidates file, and `x-crosscheck-sample`
 * picks `codes[i]`; so any client, concurrency and retry schedule gets the same replies.
 * @public
 */
export const startDatasetReplayServer = async (
  options: DatasetReplayOptions,
): Promise<DatasetReplayServer> => {
  const tasks = loadTasks(options.data);
  const byHash = new Map<string, string>();
  const userTexts: Array<[string, string]> = [];
  for (const t of tasks) {
    const raw = t.raw.llm_messages;
    const messages = Array.isArray(raw)
      ? (raw as { role: string; content: string }[])
      : codegenMessages(
          defineTask({
            name: t.entryPoint,
            entry: t.entryPoint,
            description: t.description,
            signature: t.signature,
          }),
          'python',
          'difftrust',
        );
    byHash.set(messagesHash(messages), t.taskId);
    userTexts.push([t.taskId, messages.map((m) => m.content).join('\n')]);
  }
  const models = listModels(options.data);
  const codes = new Map<string, Map<string, readonly string[]>>();
  const codesOf = (model: string) => {
    let m = codes.get(model);
    if (!m) {
      m = new Map([...loadCandidates(options.data, model)].map(([id, c]) => [id, c.codes]));
      codes.set(model, m);
    }
    return m;
  };
  const counters = new Map<string, number>();
  const attempts = new Map<string, number>();
  const f = options.faults ?? {};
  const seed = f.seed ?? 1;
  const faults = { '429': 0, '500': 0, reset: 0 };
  let requests = 0;

  const answer = async (req: ReceivedRequest, res: import('node:http').ServerResponse) => {
    const taskId = byHash.get(messagesHash(req.messages));
    if (taskId === undefined) {
      const text = req.messages.map((m) => m.content).join('\n');
      let best: [string, number] = ['', -1];
      for (const [id, t] of userTexts) {
        const k = commonPrefix(text, t);
        if (k > best[1]) best = [id, k];
      }
      const [id, at] = best;
      const theirs = userTexts.find(([i]) => i === id)?.[1] ?? '';
      sendError(
        res,
        400,
        `These messages are no task of the dataset; nearest is ${id}, which differs at character ${at} (${JSON.stringify(text.slice(at, at + 30))} vs ${JSON.stringify(theirs.slice(at, at + 30))}).`,
        'invalid_request_error',
        'unknown_task',
      );
      return;
    }
    if (req.model === null || !models.includes(req.model)) {
      sendError(
        res,
        404,
        `The model \`${req.model}\` does not exist; this dataset has ${models.join(', ')}.`,
        'invalid_request_error',
        'model_not_found',
      );
      return;
    }
    const list = codesOf(req.model).get(taskId) ?? [];
    let first: number;
    const headers: Record<string, string> = {};
    if (req.sample !== null) first = req.sample;
    else {
      const id = `${req.model}\0${taskId}`;
      first = counters.get(id) ?? 0;
      counters.set(id, first + req.n);
      headers['x-crosscheck-sample-source'] = 'counter';
    }
    const attemptId = `${req.model}\0${taskId}\0${first}`;
    const attempt = attempts.get(attemptId) ?? 0;
    attempts.set(attemptId, attempt + 1);
    const u = unit(seed, req.model, taskId, first, attempt);
    const r429 = f.rate429 ?? 0;
    const r500 = f.rate500 ?? 0;
    const rReset = f.resetRate ?? 0;
    if (u < r429) {
      faults['429']++;
      sendError(res, 429, 'Rate limit reached (injected).', 'rate_limit_error', 'rate_limit_exceeded', {
        'retry-after-ms': String(f.retryAfterMs ?? 1),
      });
      return;
    }
    if (u < r429 + r500) {
      faults['500']++;
      sendError(res, 500, 'The server had an error (injected).', 'server_error');
      return;
    }
    if (u < r429 + r500 + rReset) {
      faults.reset++;
      res.socket?.destroy();
      return;
    }
    if (first + req.n > list.length) {
      sendError(
        res,
        400,
        `Task ${taskId} has ${list.length} recorded samples of ${req.model}; sample ${first + req.n - 1} is beyond them.`,
        'invalid_request_error',
        'sample_out_of_range',
      );
      return;
    }
    const texts = list.slice(first, first + req.n).map((code, i) => {
      const body = fenced(code);
      if (!options.prose) return body;
      const v = Math.floor(unit(seed, 'prose', taskId, first + i) * 3);
      const intro = ['Here is the implementation:', 'Sure! The function follows.', 'This solves the task:'][
        v
      ];
      return `${intro}\n\n${body}\n\nIt follows the specification.`;
    });
    sendJson(res, 200, completionBody(req.model, texts, approximateUsage(req.messages, texts)), headers);
  };

  const loop = await listen(async (httpReq, res) => {
    const req = await received(httpReq);
    if (req.method === 'GET' && req.path.endsWith('/models')) {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', owned_by: 'dataset' })),
      });
      return;
    }
    if (req.method !== 'POST' || !req.path.endsWith('/chat/completions')) {
      sendError(res, 404, `Unknown path ${req.method} ${req.path}`, 'invalid_request_error', 'unknown_url');
      return;
    }
    requests++;
    if (req.body === null) {
      sendError(res, 400, 'The request body is not JSON.', 'invalid_request_error');
      return;
    }
    await answer(req, res);
  });
  return { ...loop, requests: () => requests, faults: () => ({ ...faults }), models };
};
