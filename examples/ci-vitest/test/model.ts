import { createLlm } from 'crosscheck';

/**
 * The model every test samples from. Replies go through the committed cache in llm-cache/:
 * under CI (CI=true) it is replay-only, so a test never calls the model and a missing reply is
 * an error naming the file. Locally the cache is read-write: a new prompt calls the endpoint
 * ($CROSSCHECK_LLM_BASE_URL, key in $CROSSCHECK_LLM_API_KEY) once and records the reply.
 *
 * The committed replies were recorded as model `demo-coder` of provider `scripted` (the scripted
 * server in scripts/record-cache.mjs; no real model). For your own model, change both names
 * (or drop `provider` to have it derived from the URL) and record again.
 */
export const llm = createLlm({
  model: 'demo-coder',
  provider: 'scripted',
  sampling: { temperature: 0.8, maxTokens: 800 },
});
