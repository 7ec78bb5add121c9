import { createLlm } from 'crosscheck';

/**
 * The model the pipeline's step is sampled from, through the committed cache in llm-cache/
 * (replay-only under CI=true; read-write locally, calling $CROSSCHECK_LLM_BASE_URL on a miss).
 * The committed replies were recorded as `demo-coder` of provider `scripted`: hand-written
 * replies served by crosscheck's scripted server (scripts/record-cache.mjs), not a real model.
 */
export const llm = createLlm({
  model: 'demo-coder',
  provider: 'scripted',
  sampling: { temperature: 0.8, maxTokens: 400 },
});
