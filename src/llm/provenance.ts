import type { LlmProvenance } from '../candidates/index.ts';
import type { Completion } from './types.ts';

/** A completion's provenance, as candidates and records carry it. */
export const provenanceOf = (c: Completion): LlmProvenance =>
  Object.freeze({
    provider: c.provider,
    model: c.model,
    servedModel: c.servedModel,
    key: c.key,
    sample: c.sample,
    cached: c.cached,
    finishReason: c.finishReason,
    truncated: c.finishReason === 'length',
    usage: c.usage,
    costUsd: c.costUsd,
    retries: c.retries,
    purpose: c.purpose,
  });
