/**
 * The LLM layer: sample candidates from any OpenAI-compatible model (OpenAI, vLLM, Ollama,
 * llama.cpp) through a committed record/replay cache, with sample indexes in every key, our own
 * retry policy, a concurrency limit, and tokens and cost per call.
 * @packageDocumentation
 */
export { type CacheProblem, type CacheVerification, verifyCache } from './cache/verify.ts';
export { createLlm } from './client.ts';
export {
  type SampleDatasetOptions,
  type SampleDatasetResult,
  type SampleFailure,
  type SampleProgress,
  sampleDataset,
} from './dataset.ts';
export {
  type EquivalenceCheck,
  type JudgedEquivalence,
  type JudgedEquivalenceOptions,
  judgedEquivalence,
} from './judged-equivalence.ts';
/** Internal: the CLI words a replay miss's fix as the command the user ran. @internal */
export { replayMissFacts } from './miss.ts';
export { type FromPipelineOptions, fromPipeline, type Pipeline, type PipelineLlm } from './pipeline.ts';
export { BUILTIN_PRICES, PRICES_AS_OF } from './prices.ts';
export { codegenMessages } from './prompts.ts';
export { canonicalJson } from './request.ts';
export { type FromModelOptions, fromModel } from './sample-candidates.ts';
export type {
  CacheMode,
  CacheModeSource,
  ChatMessage,
  ChatRequest,
  Completion,
  Llm,
  LlmCall,
  LlmJson,
  LlmOptions,
  LlmProvenance,
  LlmUsage,
  Price,
  Prices,
  PromptTemplate,
  Purpose,
  SampleCandidatesOptions,
  SamplingOptions,
  UsageLedger,
  UsageTotals,
} from './types.ts';
export { costOf, usageTotals } from './usage.ts';
