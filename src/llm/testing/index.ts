/**
 * `crosscheck/llm-testing`: OpenAI-compatible servers on 127.0.0.1 (real `node:http`) for testing
 * LLM pipelines offline: a scripted server with faults, and a server replaying a dataset's
 * recorded model outputs.
 * @packageDocumentation
 */
export type { Loopback, ReceivedRequest } from './http.ts';
export {
  type DatasetReplayOptions,
  type DatasetReplayServer,
  fenced,
  type ReplayFaults,
  startDatasetReplayServer,
} from './replay.ts';
export {
  type ScriptContext,
  type ScriptedFault,
  type ScriptedLlmServer,
  type ScriptedRule,
  type ScriptedServerOptions,
  startScriptedLlmServer,
} from './scripted.ts';
