import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** A reply larger than `maxReplyBytes`: a bad reply, never buffered whole. */
export class ReplyTooLarge extends Error {}

/**
 * A fully read reply as a `Response` without a body stream: undici's `new Response(buffer)`
 * wraps the bytes in a ReadableStream that `json()` then drains, 58 µs per reply against 11 µs
 * here (bench:llm). The SDK reads a non-streaming reply through `text()`/`json()` only, and
 * crosscheck never asks for a streamed one.
 */
class BufferedResponse extends Response {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }
  // Fields, not methods: the DOM typings declare these as properties.
  override text = (): Promise<string> => Promise.resolve(this.#bytes.toString('utf8'));
  override json = (): Promise<unknown> => {
    try {
      return Promise.resolve(JSON.parse(this.#bytes.toString('utf8')));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  override arrayBuffer = (): Promise<ArrayBuffer> => {
    const b = this.#bytes;
    return Promise.resolve(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  };
}

const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error
    ? signal.reason
    : new DOMException('This operation was aborted', 'AbortError');

/**
 * The `fetch` given to the SDK: node:http(s) with keep-alive agents instead of undici's fetch,
 * which costs several times more per request on loopback (bench:llm), and a body read to at
 * most `maxBytes`, so a server sending 10 MB (or an endless body) costs the cap, never the host's
 * memory. The SDK's per-attempt timeout aborts `signal`, which ends the socket, body included.
 */
export const boundedFetch = (maxBytes: number, maxSockets: number): typeof fetch => {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(abortError(signal));
      const headers: Record<string, string> = {};
      // The SDK passes a Headers: read it as is rather than copying it into another first.
      (init.headers instanceof Headers ? init.headers : new Headers(init.headers)).forEach((v, k) => {
        headers[k] = v;
      });
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
        return reject(new TypeError('crosscheck: only string or byte request bodies are supported'));
      }
      if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
      const agent = agents[url.protocol as 'http:' | 'https:'];
      if (!agent) return reject(new TypeError(`crosscheck: unsupported protocol ${url.protocol}`));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        req.destroy();
        reject(error);
      };
      const onAbort = () => fail(abortError(signal as AbortSignal));
      const req = send(url, { method: init.method ?? 'GET', headers, agent }, (res: IncomingMessage) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          return fail(
            new ReplyTooLarge(`the reply declares ${declared} bytes, more than maxReplyBytes (${maxBytes})`),
          );
        }
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > maxBytes) {
            res.destroy();
            fail(new ReplyTooLarge(`the reply is larger than maxReplyBytes (${maxBytes} bytes)`));
          } else chunks.push(chunk);
        });
        res.on('error', (e) => fail(new TypeError('fetch failed', { cause: e })));
        res.on('aborted', () =>
          fail(new TypeError('fetch failed', { cause: new Error('the connection closed mid-reply') })),
        );
        res.on('end', () => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          const out: [string, string][] = [];
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) for (const x of v) out.push([k, x]);
            else if (v !== undefined) out.push([k, v]);
          }
          const status = res.statusCode ?? 0;
          const empty = status === 204 || status === 304;
          resolve(
            new BufferedResponse(empty ? Buffer.alloc(0) : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage,
              headers: out,
            }),
          );
        });
      });
      req.on('error', (e) => fail(new TypeError('fetch failed', { cause: e })));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.end(body ?? undefined);
    });
};
