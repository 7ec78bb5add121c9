import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/bench/dataset.ts';
import { usableSignature } from '../../src/bench/task-inputs.ts';
import { gen } from '../../src/inputs/index.ts';
import { decode, encode, sha256, type Tagged } from '../../src/values/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

/**
 * Issue 18: input generation got cheaper without changing a single input. For every HumanEval
 * task of the shared data and both seed-mutation profiles, the draws of `gen.fromSeeds` for a
 * fixed seed (the sequence, and how the canonical keys group it into distinct inputs) hash to
 * what main produced before the speed-ups (fixtures/generated-inputs.json). Regenerate only for
 * a deliberate change of the distribution, and say so in the commit: CROSSCHECK_UPDATE_PIN=1.
 */
const SEED = 20261126;
const DRAWS = 1000;
const PROFILES = ['difftrust', 'typed'] as const;
const fixture = join(import.meta.dirname, 'fixtures', 'generated-inputs.json');

type Pins = Record<(typeof PROFILES)[number], Record<string, string>>;

const hashOf = async (
  task: ReturnType<typeof loadTasks>[number],
  profile: (typeof PROFILES)[number],
): Promise<string> => {
  const seeds = task.seedInputs.map((s) => decode(s as Tagged) as unknown[]);
  const source = gen.fromSeeds(seeds, {
    profile,
    language: 'python',
    signature: profile === 'typed' ? usableSignature(task.signature) : undefined,
  });
  const report = await source.generateWithReport(DRAWS, { seed: SEED });
  const draws = report.draws.map((k) => encode(report.inputs[k]));
  return sha256(JSON.stringify({ draws, groups: report.draws, drawn: report.drawn }));
};

describe('generated inputs pinned', () => {
  it.runIf(requireData())(
    'should draw exactly the inputs main drew for every HumanEval task, both profiles, a fixed seed',
    async () => {
      // Arrange
      const tasks = loadTasks(humanevalDir()).filter((t) => !t.problem && t.seedInputs.length > 0);
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      // Act
      const actual: Pins = { difftrust: {}, typed: {} };
      for (const profile of PROFILES) {
        for (const task of tasks) actual[profile][task.taskId] = await hashOf(task, profile);
      }
      if (process.env.CROSSCHECK_UPDATE_PIN === '1') {
        writeFileSync(fixture, `${JSON.stringify({ seed: SEED, draws: DRAWS, ...actual }, null, 2)}\n`);
      }
      // Assert: per task, so a failure names the task and profile whose inputs changed.
      const expected = JSON.parse(readFileSync(fixture, 'utf8')) as Pins & { seed: number; draws: number };
      expect({ seed: expected.seed, draws: expected.draws }).toEqual({ seed: SEED, draws: DRAWS });
      for (const profile of PROFILES) {
        for (const [taskId, hash] of Object.entries(actual[profile])) {
          expect(`${profile} ${taskId} ${hash}`).toBe(`${profile} ${taskId} ${expected[profile][taskId]}`);
        }
        expect(Object.keys(actual[profile])).toEqual(Object.keys(expected[profile]));
      }
    },
    600_000,
  );
});
