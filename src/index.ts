/**
 * crosscheck: oracle-free correctness checks for LLM-generated code.
 * @packageDocumentation
 */

export type {
  Candidate,
  CandidateProblem,
  CandidateTags,
  CommandCandidate,
  FunctionCandidate,
  SourceCandidate,
  SourceLanguage,
} from './candidates/index.ts';
export * as candidates from './candidates/index.ts';
export { CrosscheckError, type CrosscheckErrorCode, isCrosscheckError } from './errors/index.ts';
export * from './exec/index.ts';
export { type Args, type Gen, isGen } from './inputs/gen-contract.ts';
export { defineTask, isTask, type Task, type TaskSpec } from './task/index.ts';
export * from './values/index.ts';
