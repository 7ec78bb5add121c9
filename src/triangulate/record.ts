import type { CandidateTags } from '../candidates/index.ts';
import {
  type ClassRecord,
  commonTags,
  type JsonValue,
  RECORD_SCHEMA,
  RECORD_VERSION,
  type RecordBase,
  type RecordContext,
  type WitnessRecord,
} from '../report/index.ts';
import type { TriangulationResult } from './triangulate.ts';

/** Payload of a `triangulation` record (design §3.9). @public */
export type TriangulationData = {
  readonly transformation: string;
  readonly hyperproperty: string;
  readonly bijective: boolean;
  readonly semantics: 'artifact' | 'paper' | 'custom';
  readonly selection: 'ransac' | 'max-witness';
  readonly outcome: 'selected' | 'abstained';
  readonly selected: {
    readonly label: string;
    readonly id: string;
    readonly support: number;
    readonly score: number;
    readonly group: string[];
    /** Its plausibility witnesses (labels, with repetitions: one per agreement they came through). */
    readonly witnesses: string[];
    /** Per stage it was checked in: the hyperproperty, what φ held with, and what it inherited. */
    readonly passed: { stage: string; hyperproperty: string; held: string[]; inherited: string[] }[];
  } | null;
  readonly support: {
    readonly label: string;
    readonly support: number;
    readonly score: number;
    readonly correct: boolean | null;
  }[];
  readonly stages: {
    readonly name: string;
    readonly pairs: number;
    readonly hold: number;
    readonly inherited: number;
    readonly notChecked: number;
    readonly budget: number;
  }[];
  readonly baselines: { readonly plurality: string | null; readonly majority: string | null } | null;
  /** The selection against the task's reference, when known (null on abstention). */
  readonly correct: boolean | null;
  /** Whether any forward candidate is correct (ground truth: do not abstain), when known. */
  readonly solvable: boolean | null;
  readonly plan: JsonValue | null;
};

/** What the caller knows beyond the result: forward classes, baselines, ground truth. @public */
export interface TriangulationRecordExtra {
  readonly tags?: readonly CandidateTags[];
  readonly classes?: readonly ClassRecord[];
  readonly baselines?: { readonly plurality: string | null; readonly majority: string | null } | null;
  /** Per forward candidate, whether it is correct (from a reference or tests). */
  readonly correct?: readonly boolean[] | null;
  readonly isolation?: RecordBase['isolation'];
}

const witnessOf = (r: TriangulationResult): WitnessRecord | null => {
  const c = r.candidates.find((x) => x.counterexample !== null);
  const cx = c?.counterexample;
  if (!c || !cx) return null;
  return {
    reason: 'hyperproperty',
    input: cx.input,
    original: cx.input,
    shrinkSteps: null,
    outputs: cx.calls.map((call) => ({
      labels: [`${call.program} ${call.label}`],
      kind: call.program,
      outcome: `${call.call} → ${call.outcome}`,
    })),
    reference: null,
  };
};

const asJson = (x: unknown): JsonValue => JSON.parse(JSON.stringify(x ?? null)) as JsonValue;

/**
 * The reporters' record of one triangulation: support per candidate, selected or abstained, the
 * transformation, the first counterexample as the witness (reason `hyperproperty`), the plan and
 * tokens of a sampler.
 * @public
 */
export const triangulationRecord = (
  r: TriangulationResult,
  ctx: RecordContext,
  extra: TriangulationRecordExtra = {},
): RecordBase<'triangulation'> => {
  const correct = extra.correct ?? null;
  const sel = r.selected;
  const data: TriangulationData = {
    transformation: r.transformation,
    hyperproperty: r.hyperproperty.name,
    bijective: r.hyperproperty.bijective,
    semantics: r.preset,
    selection: r.selection,
    outcome: r.outcome,
    selected: sel && {
      label: sel.label,
      id: sel.id,
      support: sel.support,
      score: sel.score,
      group: sel.group.map((i) => r.candidates[i]?.label ?? String(i)),
      witnesses: [...sel.witnesses],
      passed: sel.passed.map((p) => ({
        stage: p.stage,
        hyperproperty: p.hyperproperty,
        held: [...p.held],
        inherited: [...p.inherited],
      })),
    },
    support: r.candidates.map((c) => ({
      label: c.label,
      support: c.support,
      score: c.score,
      correct: correct ? (correct[c.index] ?? null) : null,
    })),
    stages: r.stages.map((s) => {
      const all = s.pairs.flat();
      return {
        name: s.name,
        pairs: all.length,
        hold: all.filter((v) => v.kind === 'holds').length,
        inherited: all.filter((v) => v.kind === 'inherited').length,
        notChecked: all.filter((v) => v.kind === 'not-checked').length,
        budget: all.filter((v) => v.kind === 'budget').length,
      };
    }),
    baselines: extra.baselines ?? null,
    correct: correct && sel ? (correct[sel.index] ?? null) : null,
    solvable: correct ? correct.some(Boolean) : null,
    plan: asJson(r.plan),
  };
  return {
    schema: RECORD_SCHEMA,
    version: RECORD_VERSION,
    kind: 'triangulation',
    test: { ...ctx.test },
    task: r.task,
    tags: commonTags(extra.tags ?? ctx.tags ?? []),
    verdict: ctx.pass ? 'pass' : 'fail',
    seed: r.seed,
    m: r.candidates.length,
    n: r.inputs.forward,
    gen: r.inputs.gen,
    witness: witnessOf(r),
    classes: extra.classes ?? [],
    timings: { durationMs: r.durationMs },
    isolation: extra.isolation ?? null,
    pool: null,
    unknown: null,
    inconclusive:
      r.calls.budgetExceeded > 0 ? `${r.calls.budgetExceeded} pair checks exceeded the call budget` : null,
    tokens: r.tokens ? { prompt: r.tokens.prompt, completion: r.tokens.completion, costUsd: null } : null,
    data,
  };
};
