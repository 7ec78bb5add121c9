/**
 * The narrow view review takes of an LLM: send these messages as draw `sample`, get the text and
 * what the call cost. The LLM layer's client is adapted to it in `llm-adapter.ts`; review itself
 * depends on nothing else of that layer.
 */

/** A chat message. @public */
export interface ReviewMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Why review called the model. @public */
export type ReviewPurpose = 'scenarios' | 'properties' | 'inputs' | 'repair' | 'judge' | 'baseline';

/** One model call behind a review, as it goes into records (no prompt text, no key material). @public */
export interface ReviewCall {
  /** `<request key>/<sample>`: the same id in two records is the same call. */
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  readonly purpose: ReviewPurpose;
  /** False when the reply came from the cache. */
  readonly live: boolean;
  /** Token counts; `null` when the server did not report them. */
  readonly prompt: number | null;
  readonly cachedPrompt: number | null;
  readonly completion: number | null;
  /** USD; `null` for an unpriced model (never 0 by default). */
  readonly costUsd: number | null;
  readonly retries: number;
}

/** A reply and the call that produced it. @public */
export interface ReviewReply {
  readonly text: string;
  readonly call: ReviewCall;
}

/** What review needs from an LLM client. @public */
export interface ReviewLlm {
  /** The model as configured (for messages and records). */
  readonly model: string;
  ask(
    purpose: ReviewPurpose,
    messages: readonly ReviewMessage[],
    options: { readonly sample: number; readonly temperature: number; readonly signal?: AbortSignal },
  ): Promise<ReviewReply>;
}
