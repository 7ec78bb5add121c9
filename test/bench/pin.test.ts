import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BenchOptions, runBench } from '../../src/bench/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

/**
 * Issue 18: the benchmark's speed-ups must not change a single figure. For a fixed seed on 10
 * HumanEval tasks, the bench's JSON (records, summary, per-model figures, the paper comparison)
 * must equal the one main produced before any optimisation (test/bench/fixtures/pin-*.json).
 * Only what a run cannot reproduce is left out: wall-clock timings and which isolation the
 * machine offered. Regenerate a fixture (only for a deliberate change of figures, say so in the
 * commit) with CROSSCHECK_UPDATE_PIN=1.
 */
const TASKS = [
  'HumanEval/0',
  'HumanEval/1',
  'HumanEval/10',
  'HumanEval/11',
  'HumanEval/19',
  'HumanEval/24',
  'HumanEval/67',
  'HumanEval/77',
  'HumanEval/81',
  'HumanEval/89',
];

const dir = mkdtempSync(join(tmpdir(), 'crosscheck-pin-'));
afterAll(async () => {
  await closePythonWorkers();
  rmSync(dir, { recursive: true, force: true });
});

/** Drops what depends on the machine or the clock; everything else must be reproduced exactly. */
const normalise = (x: unknown): unknown => {
  if (Array.isArray(x)) return x.map(normalise);
  if (typeof x !== 'object' || x === null) return x;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) {
    if (k === 'timings' || k === 'durationMs' || k === 'isolation') continue;
    out[k] = normalise(v);
  }
  return out;
};

const pinned = async (name: string, options: Omit<BenchOptions, 'data' | 'out'>): Promise<void> => {
  const result = await runBench({ ...options, data: humanevalDir(), out: join(dir, `${name}.json`) });
  const actual = normalise({
    report: result.report,
    models: result.models,
    rankingAgreement: result.rankingAgreement,
    paper: result.paper,
    pairs: result.pairs.map((p) => ({ ...p, record: undefined })),
  });
  const file = join(import.meta.dirname, 'fixtures', `pin-${name}.json`);
  if (process.env.CROSSCHECK_UPDATE_PIN === '1') {
    writeFileSync(file, `${JSON.stringify(actual, null, 1)}\n`);
  }
  const expected = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  // Round-trip the actual value through JSON as the fixture went, so undefined fields match.
  expect(JSON.parse(JSON.stringify(actual))).toEqual(expected);
};

const haveData = requireData();
if (!haveData) {
  console.warn(
    `pin.test.ts skipped: no HumanEval data at ${humanevalDir()} (set CROSSCHECK_DATA; under CI this fails).`,
  );
}

describe.runIf(haveData)('benchmark figures are pinned (issue 18)', () => {
  it('paper mode (paired estimator, difftrust inputs and equality), seed 7', async () => {
    await pinned('paper', {
      models: ['gpt_4o', 'llama_3_1_8b_instruct', 'gpt_3_5'],
      tasks: TASKS,
      n: 600,
      seed: 7,
      equality: 'difftrust',
      estimator: 'paired',
      profile: 'difftrust',
      jobs: 2,
    });
  }, 600_000);

  it('default mode (all-pairs estimator, typed inputs, python equality), seed 11', async () => {
    await pinned('default', {
      models: ['gpt_4o', 'llama_3_1_8b_instruct'],
      tasks: TASKS,
      n: 200,
      seed: 11,
      jobs: 2,
    });
  }, 600_000);
});
