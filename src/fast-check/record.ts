import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import type { Candidate } from '../candidates/index.ts';
import { combineIsolation, describeOutcome, type IsolationUsed, type Outcome } from '../exec/index.ts';
import { poolIdentity } from '../measure/index.ts';
import {
  type CrosscheckRecord,
  llmRecord,
  type PropertyCandidateRecord,
  type PropertyData,
  propertyRecord,
  recordSink,
  type WitnessRecord,
} from '../report/index.ts';
import { toWire } from '../values/index.ts';

/**
 * The record of a bridge property's run. A fast-check plugin (installed globally when this module
 * loads, and available as {@link recordPropertyRuns} for a `plugins` list) opens a collector for
 * each `fc.assert`/`fc.check` run, including those `@fast-check/vitest` and `@fast-check/jest`
 * make; every evaluation of a bridge property inside that run reports to the collector through
 * an AsyncLocalStorage, so concurrent runs never mix. When the run ends, the collector writes one
 * `property` record per bridge property that ran, and hands it to the host's record sink.
 * @packageDocumentation
 */

/** What the bridge knows of a property, for its records. @internal */
export interface BridgeInfo {
  /** The bridge function, e.g. `coherenceProperty`. */
  readonly property: string;
  readonly task: string;
  readonly candidates: readonly Candidate[];
  readonly gen: string | null;
  /** The records of this property's runs in this process, oldest first. */
  readonly records: CrosscheckRecord[];
  /** What a witness of this property shows. @defaultValue 'candidates disagree' */
  readonly witnessReason?: WitnessRecord['reason'];
  /** Programs called beside the candidates (a relation's partner): their model calls count too. */
  readonly alsoCalled?: readonly Candidate[];
  /**
   * Agreement needs two candidates that returned values: identical failures are not agreement
   * about the task. When set, a run in which fewer than two candidates ever returned a value is
   * inconclusive however many inputs passed, and the run fails with a message that says so.
   */
  readonly needsTwoReturning?: boolean;
}

/** One evaluation: the input, every candidate's outcome, and the classes when they disagreed. @internal */
export interface Evaluation {
  readonly args: unknown;
  readonly labels: readonly string[];
  readonly outcomes: readonly Outcome[];
  readonly reference: Outcome | null;
  readonly isolation: IsolationUsed;
  /** Agreeing classes, largest first; null when every candidate agreed. */
  readonly classes: ReadonlyArray<{ readonly labels: readonly string[]; readonly outcome: Outcome }> | null;
}

/** Longest text a record keeps of one value: outputs are a candidate's, and reports stay readable. */
const MAX_TEXT = 4000;
const cut = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

const wire = (value: unknown): string => {
  try {
    return cut(toWire(value));
  } catch {
    return cut(fc.stringify(value));
  }
};

/** What one run saw of one bridge property. */
class Observed {
  readonly started = performance.now();
  inputsRun = 0;
  isolation: IsolationUsed | null = null;
  readonly tally = new Map<
    string,
    { -readonly [K in keyof PropertyCandidateRecord]: PropertyCandidateRecord[K] }
  >();
  first: Evaluation | null = null;
  last: Evaluation | null = null;

  add(e: Evaluation): void {
    this.inputsRun++;
    this.isolation = this.isolation === null ? e.isolation : combineIsolation(this.isolation, e.isolation);
    e.outcomes.forEach((o, i) => {
      const label = e.labels[i] ?? `#${i}`;
      let t = this.tally.get(label);
      if (!t) {
        t = { label, value: 0, invalid: 0, error: 0, timeout: 0, crash: 0 };
        this.tally.set(label, t);
      }
      t[o.kind]++;
    });
    if (e.classes !== null) {
      this.first ??= e;
      this.last = e;
    }
  }
}

/** The bridge properties one fast-check run evaluated. */
class RunCollector {
  readonly seen = new Map<BridgeInfo, Observed>();
}

const storage = new AsyncLocalStorage<RunCollector>();

const observedOf = (bridge: BridgeInfo): Observed | null => {
  const collector = storage.getStore();
  if (!collector) return null;
  let observed = collector.seen.get(bridge);
  if (!observed) {
    observed = new Observed();
    collector.seen.set(bridge, observed);
  }
  return observed;
};

/**
 * Called by the bridge as it starts on an input, so a run whose every input was skipped still
 * writes its record; a no-op outside a recorded fast-check run. @internal
 */
export const noteStart = (bridge: BridgeInfo): void => {
  observedOf(bridge);
};

/** Called by the bridge for each input it ran; a no-op outside a recorded fast-check run. @internal */
export const noteEvaluation = (bridge: BridgeInfo, evaluation: Evaluation): void => {
  observedOf(bridge)?.add(evaluation);
};

const witnessOf = (o: Observed): WitnessRecord | null => {
  const last = o.last;
  if (last?.classes == null) return null;
  // Largest class first, as the property's own message lists them.
  const classes = [...last.classes].sort((a, b) => b.labels.length - a.labels.length);
  return {
    reason: 'candidates disagree',
    input: wire(last.args),
    original: wire((o.first ?? last).args),
    shrinkSteps: null,
    outputs: classes.map((c) => ({
      labels: [...c.labels],
      kind: c.outcome.kind,
      outcome: cut(describeOutcome(c.outcome)),
    })),
    reference: last.reference === null ? null : cut(describeOutcome(last.reference)),
  };
};

/**
 * Why a run that fast-check saw pass supports no verdict, or null: for a property that compares
 * candidates, fewer than two of them returned a value on any input it ran.
 */
const inconclusiveReason = (
  bridge: BridgeInfo,
  observed: Observed,
  details: fc.RunDetails<unknown>,
): string | null => {
  if (!bridge.needsTwoReturning || details.failed || observed.inputsRun === 0) return null;
  const returned = bridge.candidates.filter((c) => (observed.tally.get(c.label)?.value ?? 0) > 0);
  if (returned.length >= 2) return null;
  const who = returned.length === 0 ? 'none' : `only ${returned[0]?.label}`;
  return `inconclusive: of ${bridge.candidates.length} candidates, ${who} returned a value on the ${observed.inputsRun} input${observed.inputsRun === 1 ? '' : 's'} run, so their agreement says nothing about the task (identical failures are not agreement). Fix the candidates or the inputs so that at least two return values.`;
};

const outcomeOf = (d: fc.RunDetails<unknown>): PropertyData['outcome'] => {
  if (d.counterexample !== null) return 'falsified';
  if (d.interrupted) return 'interrupted';
  return d.failed ? 'too-many-skips' : 'held';
};

const failureText = (error: unknown): string | null => {
  if (error === null || error === undefined) return null;
  const text = error instanceof Error ? error.message : String(error);
  return cut(text.split('\n').slice(0, 8).join('\n'));
};

/** Builds the record of one bridge property's part in a finished run. @internal */
export const buildPropertyRecord = (
  bridge: BridgeInfo,
  observed: Observed,
  details: fc.RunDetails<unknown>,
): CrosscheckRecord => {
  const witness = witnessOf(observed);
  const inconclusive = inconclusiveReason(bridge, observed, details);
  const requested = details.runConfiguration?.numRuns;
  const test = recordSink()?.currentTest() ?? null;
  return propertyRecord(
    {
      task: bridge.task,
      m: bridge.candidates.length,
      gen: bridge.gen,
      witness: witness && {
        ...witness,
        reason: bridge.witnessReason ?? witness.reason,
        shrinkSteps: details.numShrinks,
      },
      durationMs: performance.now() - observed.started,
      isolation: observed.isolation,
      pool: poolIdentity(
        bridge.task,
        bridge.candidates.map((c) => c.id),
      ),
      inconclusive,
    },
    {
      property: bridge.property,
      biased: true,
      outcome: outcomeOf(details),
      seed: details.seed,
      path: details.counterexamplePath,
      runsRequested:
        Number.isSafeInteger(requested) && (requested as number) >= 0 ? (requested as number) : null,
      runs: details.numRuns,
      skips: details.numSkips,
      shrinks: details.numShrinks,
      inputsRun: observed.inputsRun,
      counterexample: details.counterexample === null ? null : cut(fc.stringify(details.counterexample)),
      failure: failureText(details.errorInstance),
      candidates: bridge.candidates.map(
        (c) =>
          observed.tally.get(c.label) ?? {
            label: c.label,
            value: 0,
            invalid: 0,
            error: 0,
            timeout: 0,
            crash: 0,
          },
      ),
    },
    {
      test: {
        file: test?.file ?? null,
        name: test?.name ?? null,
        matcher: bridge.property,
        negated: false,
      },
      pass: !details.failed && inconclusive === null,
      tags: bridge.candidates.map((c) => c.tags),
      // As the matchers do: pipeline samples' tokens and cost per candidate, and a judge's summary.
      llm: llmRecord([...bridge.candidates, ...(bridge.alsoCalled ?? [])]),
    },
  );
};

/** Raised at the end of a run that fast-check saw pass but that supports no verdict. */
class InconclusivePropertyError extends Error {
  override readonly name = 'InconclusivePropertyError';
}

/**
 * Writes the records of a finished run, then fails the run if a property it ran is inconclusive
 * (thrown from `onAllRunsComplete`, fast-check's way for a plugin to fail `fc.assert`/`fc.check`).
 */
const finish = (collector: RunCollector, details: fc.RunDetails<unknown>): void => {
  const inconclusive: string[] = [];
  for (const [bridge, observed] of collector.seen) {
    const reason = inconclusiveReason(bridge, observed, details);
    if (reason !== null) inconclusive.push(`${bridge.property} on task "${bridge.task}": ${reason}`);
    const record = buildPropertyRecord(bridge, observed, details);
    bridge.records.push(record);
    try {
      recordSink()?.deliver(record);
    } catch (error) {
      // Thrown here it would replace fast-check's report of the run (its counterexample) with
      // ours; the run's verdict matters more than its record, so say so and go on.
      process.stderr.write(
        `crosscheck: the record of a ${bridge.property} run on ${bridge.task} could not be delivered to the reporter: ${(error as Error).message}\n`,
      );
    }
  }
  if (inconclusive.length > 0) throw new InconclusivePropertyError(inconclusive.join('\n'));
};

// One recorder per run: the global plugin and an explicit one in `plugins` must not both record.
const RECORDING = Symbol('crosscheck.recording');

/**
 * A fast-check plugin that records bridge properties' runs for the crosscheck reporters. It is
 * installed globally when `crosscheck/fast-check` loads (fast-check ≥ 4.10), so `fc.assert`,
 * `fc.check` and `test.prop` record without it; pass it in `plugins` where fast-check is a
 * separate copy from crosscheck's (the global plugin then cannot reach it). A run records once
 * however many recorders it has.
 * @public
 */
export const recordPropertyRuns: fc.Plugin<unknown> = (_index, store) => {
  if (store.get(RECORDING)) return {};
  store.set(RECORDING, true);
  const collector = new RunCollector();
  return {
    decorateRun: (nested) => (value) => storage.run(collector, () => nested(value)),
    // Synchronous, as fast-check requires for synchronous properties.
    onAllRunsComplete: (details) => {
      if (collector.seen.size > 0) finish(collector, details);
    },
  };
};

let installed = false;

/** Installs {@link recordPropertyRuns} globally, once. @internal */
export const installRecorder = (): void => {
  if (installed) return;
  installed = true;
  // fast-check before 4.10 has no plugins: runs then write no record, as before.
  if (typeof fc.installGlobalPlugin === 'function') fc.installGlobalPlugin(recordPropertyRuns);
};
