import type { Llm } from '../llm/index.ts';
import type { ReviewLlm } from './port.ts';

/** True for a client made by `createLlm` (or one shaped like it). */
export const isLlm = (x: unknown): x is Llm =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as Llm).chat === 'function' &&
  typeof (x as Llm).model === 'string' &&
  typeof (x as Llm).ledger === 'object';

const adapted = new WeakMap<Llm, ReviewLlm>();

/**
 * Review's view of an LLM client: one `chat` per ask, with the review's sample index and
 * temperature, and the call as it goes into records. Usage the server did not report stays
 * null; cost stays null for an unpriced model.
 */
export const reviewLlmOf = (llm: Llm): ReviewLlm => {
  const known = adapted.get(llm);
  if (known) return known;
  const view: ReviewLlm = {
    model: llm.model,
    async ask(purpose, messages, { sample, temperature, signal }) {
      const c = await llm.chat(
        {
          messages: messages.map((m) => ({ role: m.role, content: m.content })),
          sampling: { temperature },
          purpose,
        },
        { sample, ...(signal ? { signal } : {}) },
      );
      return {
        text: c.text,
        call: {
          id: `${c.key}/${c.sample}`,
          model: c.model,
          provider: c.provider,
          purpose,
          live: !c.cached,
          prompt: c.usage.prompt,
          cachedPrompt: c.usage.cachedPrompt,
          completion: c.usage.completion,
          costUsd: c.costUsd,
          retries: c.retries,
        },
      };
    },
  };
  adapted.set(llm, view);
  return view;
};
