import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the loopback servers see it. @public */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or null when it was not JSON. */
  readonly body: Record<string, unknown> | null;
  readonly model: string | null;
  readonly messages: ReadonlyArray<{ role: string; content: string }>;
  /** Content of the last user message ('' when none). */
  readonly lastUser: string;
  /** `n` as sent (1 when absent). */
  readonly n: number;
  /** From `x-crosscheck-sample`, or null. */
  readonly sample: number | null;
  /** From `x-crosscheck-purpose`, or null. */
  readonly purpose: string | null;
}

const MAX_BODY = 16 * 1024 * 1024;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on('data', (c: Buffer) => {
      total += c.length;
      if (total > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const received = async (req: IncomingMessage): Promise<ReceivedRequest> => {
  const text = await readBody(req);
  let body: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed;
  } catch {
    body = null;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers[k] = v;
  }
  const messages = Array.isArray(body?.messages)
    ? (body.messages as { role: string; content: string }[]).filter((m) => m && typeof m.content === 'string')
    : [];
  const users = messages.filter((m) => m.role === 'user');
  const sample = headers['x-crosscheck-sample'];
  return {
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0] as string,
    headers,
    body,
    model: typeof body?.model === 'string' ? body.model : null,
    messages,
    lastUser: users.at(-1)?.content ?? '',
    n: typeof body?.n === 'number' && Number.isSafeInteger(body.n) && body.n > 0 ? body.n : 1,
    sample: sample !== undefined && /^\d+$/.test(sample) ? Number(sample) : null,
    purpose: headers['x-crosscheck-purpose'] ?? null,
  };
};

export const sendJson = (
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void => {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
};

/** An error in OpenAI's shape: `{ error: { message, type, param, code } }`. */
export const sendError = (
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  headers: Readonly<Record<string, string>> = {},
): void => sendJson(res, status, { error: { message, type, param: null, code } }, headers);

/** Approximate usage: ⌈chars / 4⌉ per side, as the servers' default. */
export const approximateUsage = (messages: ReadonlyArray<{ content: string }>, texts: readonly string[]) => {
  const prompt = Math.ceil(messages.reduce((s, m) => s + m.content.length, 0) / 4);
  const completion = texts.reduce((s, t) => s + Math.ceil(t.length / 4), 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
};

let idCounter = 0;

/** A Chat Completions reply. */
export const completionBody = (
  model: string,
  texts: readonly string[],
  usage: unknown,
  finishReason = 'stop',
): Record<string, unknown> => ({
  id: `chatcmpl-loopback-${++idCounter}`,
  object: 'chat.completion',
  created: 1_700_000_000,
  model,
  choices: texts.map((content, index) => ({
    index,
    message: { role: 'assistant', content, refusal: null },
    logprobs: null,
    finish_reason: finishReason,
  })),
  ...(usage === null ? {} : { usage }),
});

/** A started server: its `/v1` URL and a close that ends every open connection. */
export interface Loopback {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export const listen = async (
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<Loopback> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error) => {
      if (!res.headersSent)
        sendError(res, 500, `loopback server error: ${(error as Error).message}`, 'server_error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};
