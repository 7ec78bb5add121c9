import type { RankingObservation } from '../../src/index.ts';

/**
 * Synthetic per-candidate observations with a known order: model k's candidates are wrong on a
 * task with probability `rates[k]`, and a wrong candidate disagrees with the others on a share
 * of the inputs. Deterministic (an LCG seeded by `seed`).
 */
export const syntheticObservations = (
  rates: Readonly<Record<string, number>>,
  options: { tasks: number; m: number; seed?: number; n?: number },
): RankingObservation[] => {
  let state = (options.seed ?? 1) >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const out: RankingObservation[] = [];
  for (let t = 0; t < options.tasks; t++)
    for (const [model, rate] of Object.entries(rates)) {
      const error: number[] = [];
      for (let i = 0; i < options.m; i++) error.push(random() < rate ? 0.2 + 0.6 * random() : 0);
      const meanError = error.reduce((a, b) => a + b, 0) / options.m;
      // A wrong candidate disagrees with the others where it errs; a right one where the wrong ones err.
      const disagreement = error.map((e) => (e > 0 ? e : meanError));
      out.push({
        model,
        task: `task-${String(t).padStart(3, '0')}`,
        n: options.n ?? 100,
        error,
        disagreement,
      });
    }
  return out;
};
