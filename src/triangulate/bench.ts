import { listModels, loadCandidates, loadTasks, resolveBenchOptions, taskInputs } from '../bench/index.ts';
import { type Candidate, fromSources } from '../candidates/index.ts';
import { CrosscheckError, checkKeys, knownKeys } from '../errors/index.ts';
import { run } from '../exec/index.ts';
import {
  type AbstentionCounts,
  type AbstentionMetrics,
  abstentionIdentities,
  abstentionMetrics,
  countDecisions,
  decision,
  probCorrectUnderAgreement,
} from '../stats/index.ts';
import { defineTask } from '../task/index.ts';
import { comparator } from '../values/index.ts';
import { majority, plurality } from './baselines.ts';
import type { SemanticsOption } from './options.ts';
import { triangulate } from './triangulate.ts';
import { HUMANEVAL_WITNESSES } from './witnesses-humaneval.ts';

/** Methods `bench triangulation` runs without a model: baselines, and hand-written witnesses. @public */
export type TriangulationBenchMethod = 'plurality' | 'majority' | 'witness';

/** Options of {@link runTriangulationBench}. @public */
export interface TriangulationBenchOptions {
  readonly data: string;
  readonly models?: readonly string[];
  readonly tasks?: readonly string[];
  readonly limit?: number;
  /** Forward samples per task. @defaultValue 10 */
  readonly samples?: number;
  /** Forward inputs per task (reference-filtered draws of the task's seeds). @defaultValue 25 */
  readonly n?: number;
  readonly seed?: number;
  readonly methods?: readonly TriangulationBenchMethod[];
  readonly semantics?: SemanticsOption;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onTask?: (model: string, task: string, done: number, total: number) => void;
}

const BENCH_KEYS = knownKeys<TriangulationBenchOptions>({
  data: true,
  models: true,
  tasks: true,
  limit: true,
  samples: true,
  n: true,
  seed: true,
  methods: true,
  semantics: true,
  timeoutMs: true,
  signal: true,
  onTask: true,
});

/** One model × method row. @public */
export interface TriangulationBenchRow {
  readonly model: string;
  readonly method: string;
  readonly tasks: number;
  readonly counts: AbstentionCounts;
  readonly metrics: AbstentionMetrics;
  /** Broken Fig. 8 identities (empty when all hold). */
  readonly identities: readonly string[];
  /** P(correct | agreement) pooled over tasks; null when nothing agreed. */
  readonly probCorrectUnderAgreement: number | null;
  /** Share of tasks with no correct sample (the ground-truth abstention rate). */
  readonly groundTruthAbstention: number | null;
  readonly skipped: number;
  readonly seconds: number;
}

/** What `bench triangulation` measured. @public */
export interface TriangulationBenchResult {
  readonly rows: readonly TriangulationBenchRow[];
  readonly skipped: ReadonlyArray<{ readonly model: string; readonly task: string; readonly reason: string }>;
  readonly options: { samples: number; n: number; seed: number; semantics: string };
}

interface Acc {
  decisions: ('n1' | 'n2' | 'n3' | 'n4' | 'n5')[];
  supports: { support: number }[][];
  correct: boolean[][];
  seconds: number;
}

/**
 * The paper's abstention metrics per model and method over a dataset with references
 * (`shared/data` format): plurality and Majority 0.5 on every task, hand-written witnesses
 * (`witness`) on the tasks that have one. Ground truth per forward sample: equal to the reference
 * on every forward input.
 * @public
 */
export const runTriangulationBench = async (
  o: TriangulationBenchOptions,
): Promise<TriangulationBenchResult> => {
  if (typeof o === 'object' && o !== null)
    checkKeys({ where: 'runTriangulationBench(options)' }, o, BENCH_KEYS);
  const samples = o.samples ?? 10;
  const n = o.n ?? 25;
  const seed = o.seed ?? 1;
  const methods = o.methods ?? ['plurality', 'majority', 'witness'];
  for (const m of methods) {
    if (!['plurality', 'majority', 'witness'].includes(m)) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `bench triangulation: unknown method ${JSON.stringify(m)}; the methods without a model are plurality, majority, witness.`,
        { where: 'crosscheck bench triangulation --methods' },
      );
    }
  }
  const resolved = resolveBenchOptions({ data: o.data, n, seed, timeoutMs: o.timeoutMs ?? 250 });
  let tasks = loadTasks(o.data);
  if (o.tasks) tasks = tasks.filter((t) => o.tasks?.includes(t.taskId));
  if (o.limit !== undefined) tasks = tasks.slice(0, o.limit);
  const models = o.models ?? listModels(o.data);
  const inputsOf = new Map<string, Awaited<ReturnType<typeof taskInputs>>>();
  const acc = new Map<string, Acc>();
  const skipped: { model: string; task: string; reason: string }[] = [];
  const key = (model: string, method: string) => `${model}\u0000${method}`;
  const add = (
    model: string,
    method: string,
    d: Acc['decisions'][number],
    seconds: number,
    supports?: { support: number }[],
    correct?: boolean[],
  ) => {
    let a = acc.get(key(model, method));
    if (!a) {
      a = { decisions: [], supports: [], correct: [], seconds: 0 };
      acc.set(key(model, method), a);
    }
    a.decisions.push(d);
    a.seconds += seconds;
    if (supports && correct && d !== 'n3' && d !== 'n5') {
      a.supports.push(supports);
      a.correct.push(correct);
    }
  };
  const total = models.length * tasks.length;
  let done = 0;
  const cmp = comparator('python');
  for (const model of models) {
    const codes = loadCandidates(o.data, model);
    for (const t of tasks) {
      if (o.signal?.aborted) throw new CrosscheckError('ABORTED', 'bench triangulation: aborted.');
      o.onTask?.(model, t.taskId, done++, total);
      const entry = codes.get(t.taskId);
      if (!entry || entry.codes.length === 0) {
        skipped.push({ model, task: t.taskId, reason: 'no candidates' });
        continue;
      }
      let ti = inputsOf.get(t.taskId);
      if (!ti) {
        ti = await taskInputs(t, resolved, o.signal);
        inputsOf.set(t.taskId, ti);
      }
      if (!ti.ok) {
        skipped.push({ model, task: t.taskId, reason: ti.reason });
        continue;
      }
      const L = ti.inputs.slice(0, n);
      const forward = fromSources(entry.codes.slice(0, samples), {
        language: ti.language,
        entry: t.entryPoint,
        tags: { model },
      });
      const task = defineTask({
        name: t.taskId,
        signature: t.signature,
        entry: t.entryPoint,
        timeoutMs: resolved.timeoutMs,
        reference: ti.reference,
      });
      const bare = defineTask({
        name: t.taskId,
        signature: t.signature,
        entry: t.entryPoint,
        timeoutMs: resolved.timeoutMs,
      });
      const m = await run(task, forward, L, { budgetMs: resolved.budgetMs });
      const ref = m.reference?.outcomes ?? [];
      const correct = m.outcomes.map((row) =>
        row.every((out, j) => {
          const r = ref[j];
          return r?.kind === 'value' && out.kind === 'value' && cmp.equalTagged(r.tagged, out.tagged);
        }),
      );
      for (const method of methods) {
        const started = performance.now();
        if (method === 'plurality' || method === 'majority') {
          const b = await (method === 'plurality' ? plurality : majority)(bare, forward, { inputs: L });
          const sel = b.selection.kind === 'selected' ? b.selection.index : null;
          const supports = forward.map((_, i) => ({
            support: b.classes.find((c) => c.includes(i) && c.length >= 2)?.length ?? 0,
          }));
          add(
            model,
            method,
            decision(sel, correct),
            (performance.now() - started) / 1000,
            supports.map((s) => ({ support: Math.max(0, s.support - 1) })),
            correct,
          );
        } else {
          const w = HUMANEVAL_WITNESSES[t.taskId];
          if (!w) continue;
          const witness = fromSources([w.source], {
            language: 'python',
            entry: w.entry,
            label: `hand:${t.taskId}`,
          }) as Candidate[];
          const r = await triangulate(bare, forward, {
            transformation: w.transformation,
            witnesses: witness,
            inputs: L,
            seed,
            ...(o.semantics ? { semantics: o.semantics } : {}),
            run: { budgetMs: resolved.budgetMs },
          });
          add(
            model,
            `${method}:${r.stages[0]?.name ?? '?'}`,
            decision(r.selected?.index ?? null, correct),
            (performance.now() - started) / 1000,
            [...r.candidates],
            correct,
          );
        }
      }
    }
  }
  const rows: TriangulationBenchRow[] = [...acc.entries()]
    .map(([k, a]) => {
      const [model, method] = k.split('\u0000') as [string, string];
      const counts = countDecisions(a.decisions);
      const metrics = abstentionMetrics(counts);
      const nt = a.decisions.length;
      return {
        model,
        method,
        tasks: nt,
        counts,
        metrics,
        identities: abstentionIdentities(counts, metrics),
        probCorrectUnderAgreement: probCorrectUnderAgreement(a.supports, a.correct),
        groundTruthAbstention: nt === 0 ? null : (counts.n4 + counts.n5) / nt,
        skipped: skipped.filter((s) => s.model === model).length,
        seconds: a.seconds,
      };
    })
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.method < b.method ? -1 : 1));
  return {
    rows,
    skipped,
    options: {
      samples,
      n,
      seed,
      semantics: typeof o.semantics === 'string' ? o.semantics : o.semantics ? 'custom' : 'artifact',
    },
  };
};

const fmt = (x: number | null, pct = true): string =>
  x === null ? '—' : pct ? `${(x * 100).toFixed(1)}%` : x.toFixed(2);

/** The metrics table, one row per model × method, with the N₁…N₅ identity check. @public */
export const renderTriangulationTable = (r: TriangulationBenchResult): string => {
  const head = [
    'model',
    'method',
    'tasks',
    'N1',
    'N2',
    'N3',
    'N4',
    'N5',
    'rel.acc',
    'overall',
    'abst.rate',
    'abst.F1',
    'P(ok|agree)',
    'GT abst.',
    'identities',
  ];
  const body = r.rows.map((x) => [
    x.model,
    x.method,
    String(x.tasks),
    String(x.counts.n1),
    String(x.counts.n2),
    String(x.counts.n3),
    String(x.counts.n4),
    String(x.counts.n5),
    fmt(x.metrics.reliableAccuracy),
    fmt(x.metrics.overallAccuracy),
    fmt(x.metrics.abstentionRate),
    fmt(x.metrics.abstentionF1, false),
    fmt(x.probCorrectUnderAgreement),
    fmt(x.groundTruthAbstention),
    x.identities.length === 0 ? 'hold' : `BROKEN: ${x.identities.join('; ')}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const line = (row: string[]) =>
    row.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
};
