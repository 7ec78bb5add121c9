import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadTasks } from '../../src/bench/index.ts';
import { fromSources } from '../../src/candidates/index.ts';
import { run } from '../../src/exec/index.ts';
import type { Args } from '../../src/inputs/index.ts';
import type { ScriptedRule } from '../../src/llm/testing/index.ts';
import { showInput, showOutcome } from '../../src/review/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { decode, type Tagged } from '../../src/values/index.ts';
import { block, CORRECT, INCORRECT, judgeBlocks, scenariosReply } from './helpers.ts';

export const DATA = resolve(
  process.env.CROSSCHECK_DATA ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'data'),
  'humaneval',
);
export const hasData = existsSync(join(DATA, 'tasks.jsonl.gz'));

/** Per task: its seed inputs as the generator writes them, and the reference's output on each, as the judge sees it. */
export interface TaskTruth {
  readonly entry: string;
  readonly inputs: readonly string[];
  readonly expected: ReadonlyMap<string, string>;
}

/** Runs each task's reference on its seed inputs (through the Python runner) to know what the specification requires. */
export const taskTruths = async (taskIds: readonly string[]): Promise<Map<string, TaskTruth>> => {
  const wanted = new Set(taskIds);
  const out = new Map<string, TaskTruth>();
  for (const t of loadTasks(DATA).filter((x) => wanted.has(x.taskId))) {
    const [reference] = fromSources([t.groundTruthCode as string], {
      language: 'python',
      entry: t.entryPoint,
    });
    const args = t.seedInputs.map((s) => decode(s as Tagged) as Args);
    const task = defineTask({ name: t.taskId, entry: t.entryPoint });
    const m = await run(task, [reference!], args);
    const inputs = args.map((a) => showInput(a, 'python'));
    const expected = new Map<string, string>();
    for (const [j, text] of inputs.entries()) expected.set(text, showOutcome(m.outcomes[0]![j]!, 'python'));
    out.set(t.entryPoint, { entry: t.entryPoint, inputs, expected });
  }
  return out;
};

/** Judges defined in the tests: each decides from the INPUT and OUTPUT blocks only. */
export type Judge = (truth: TaskTruth, input: string, output: string, sample: number) => string;

export const oracleJudge: Judge = (truth, input, output) => {
  const want = truth.expected.get(input);
  return want === output
    ? CORRECT(`The specification requires ${want}.`)
    : INCORRECT(`The specification requires ${want}.`);
};
export const swappedJudge: Judge = (truth, input, output) =>
  oracleJudge(truth, input, output, 0).endsWith('VERDICT: CORRECT')
    ? INCORRECT('Swapped.')
    : CORRECT('Swapped.');
export const alwaysCorrectJudge: Judge = () => CORRECT('Looks fine.');
/** A seeded coin: a triple gets the same verdict within a rerun (sample index), with probability p of CORRECT. */
export const coinJudge =
  (seed: number, p = 0.5): Judge =>
  (_truth, input, output, sample) => {
    let h = (seed ^ Math.imul(sample + 1, 0x9e3779b1)) >>> 0;
    for (const ch of `${input}\u0000${output}`)
      h = Math.imul(h ^ (ch.codePointAt(0) as number), 0x01000193) >>> 0;
    return (h % 1000) / 1000 < p ? CORRECT('Heads.') : INCORRECT('Tails.');
  };

/**
 * A scripted generator serving each task's seed inputs as the model's inputs: scenario Si gets
 * up to 6 (the paper's 2k with k = 3) of the seeds j with j mod 3 = i − 1; a repair gets nothing new (a scenario whose
 * seeds all crash the candidate is skipped), and a judge from the test.
 */
export const humanevalRules = (truths: ReadonlyMap<string, TaskTruth>, judge: Judge): ScriptedRule[] => {
  const truthOf = (text: string): TaskTruth => {
    const entry = /Specification of `(\w+)/.exec(text)?.[1] ?? '';
    const t = truths.get(entry);
    if (!t) throw new Error(`no task for ${entry}`);
    return t;
  };
  return [
    { match: { purpose: 'scenarios' }, reply: scenariosReply(['first seeds', 'middle seeds', 'last seeds']) },
    { match: { purpose: 'properties' }, reply: block(['{"parameters": []}']) },
    {
      match: { purpose: 'inputs' },
      reply: (req) => {
        const t = truthOf(req.lastUser);
        const i = Number(/Scenario S(\d+):/.exec(req.lastUser)?.[1] ?? 1) - 1;
        return block(t.inputs.filter((_, j) => j % 3 === i).slice(0, 6), 'python');
      },
    },
    { match: { purpose: 'repair' }, reply: block([], 'python') },
    {
      match: { purpose: 'judge' },
      reply: (req) => {
        const first = req.messages.find((m) => m.role === 'user')?.content ?? '';
        const { input, output } = judgeBlocks(first);
        return judge(truthOf(first), input, output, req.sample ?? 0);
      },
    },
  ];
};

/**
 * Fixtures from the HumanEval data (llama_3_1_8b_instruct samples): programs whose truth against
 * the reference is known and whose seed inputs reach the bug of the wrong ones, so an oracle judge
 * separates them exactly. Task id → sample indexes.
 */
export const FIXTURES = {
  correct: { 'HumanEval/11': 0, 'HumanEval/62': 0, 'HumanEval/113': 4, 'HumanEval/84': 5 },
  wrong: { 'HumanEval/84': 0, 'HumanEval/41': 0, 'HumanEval/83': 0, 'HumanEval/130': 0 },
} as const;
export const FIXTURE_MODEL = 'llama_3_1_8b_instruct';

/** A dataset directory holding only the fixture tasks and, per task, only the fixture samples (in index order). */
export const fixtureDataset = (dir: string): void => {
  const tasks = gunzipSync(readFileSync(join(DATA, 'tasks.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  const ids = new Set([...Object.keys(FIXTURES.correct), ...Object.keys(FIXTURES.wrong)]);
  const keep = tasks.filter((line) => ids.has((JSON.parse(line) as { task_id: string }).task_id));
  mkdirSync(join(dir, 'candidates'), { recursive: true });
  writeFileSync(join(dir, 'tasks.jsonl'), `${keep.join('\n')}\n`);
  const all = gunzipSync(readFileSync(join(DATA, 'candidates', `${FIXTURE_MODEL}.jsonl.gz`)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  const lines = all.flatMap((line) => {
    const row = JSON.parse(line) as { task_id: string; codes: string[] };
    if (!ids.has(row.task_id)) return [];
    const picks = [
      (FIXTURES.correct as Record<string, number>)[row.task_id],
      (FIXTURES.wrong as Record<string, number>)[row.task_id],
    ]
      .filter((x): x is number => x !== undefined)
      .sort((a, b) => a - b);
    return [JSON.stringify({ task_id: row.task_id, n: picks.length, codes: picks.map((i) => row.codes[i]) })];
  });
  writeFileSync(join(dir, 'candidates', `${FIXTURE_MODEL}.jsonl`), `${lines.join('\n')}\n`);
};
