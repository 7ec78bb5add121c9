import { spearman } from '../stats/index.ts';

/**
 * The figures of table 4 and figure 1 of the incoherence paper (section 6.3), computed the same
 * way for our results and for the paper's logs so the two can stand side by side.
 */

/** One task's result for one model. @public */
export interface TaskFigure {
  readonly task: string;
  readonly incoherence: number;
  readonly error: number;
}

/** Per-model figures (table 4 plus false positives). `null` where a figure does not apply. @public */
export interface ModelFigures {
  readonly model: string;
  /** Tasks measured (pairs not run excluded). */
  readonly tasks: number;
  /** Pairs not run (status `failed`): no verdict on the model's code, in no figure. */
  readonly failedTasks: number;
  readonly meanError: number | null;
  readonly meanIncoherence: number | null;
  /** Spearman's ρ between per-task error and incoherence; null when undefined (constant side). */
  readonly spearman: number | null;
  /** #(Ê > 0 ∧ Î > 0) / #(Ê > 0); null when no task has error. */
  readonly detectionRate: number | null;
  /** Mean Ê over tasks with Î = 0; null when every task disagreed. */
  readonly undetectedMeanError: number | null;
  /** Tasks with Î > 0 but Ê = 0: impossible in theory when both come from the same inputs. */
  readonly falsePositives: number;
  /** Shares of tasks with Ê = 0 and with Î = 0: the two rankings of figure 1. */
  readonly correctShare: number | null;
  readonly coherentShare: number | null;
}

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;

/** Spearman's ρ, or null when it is undefined (fewer than two points, a constant side). @public */
export const rho = (xs: readonly number[], ys: readonly number[]): number | null => {
  if (xs.length < 2) return null;
  const r = spearman(xs, ys);
  return Number.isFinite(r) ? r : null;
};

/** Table 4 figures of one model from its per-task results. @public */
export const modelFigures = (
  model: string,
  points: readonly TaskFigure[],
  failedTasks: number,
): ModelFigures => {
  const wrong = points.filter((p) => p.error > 0);
  const undetected = points.filter((p) => p.incoherence === 0);
  return {
    model,
    tasks: points.length,
    failedTasks,
    meanError: mean(points.map((p) => p.error)),
    meanIncoherence: mean(points.map((p) => p.incoherence)),
    spearman: rho(
      points.map((p) => p.error),
      points.map((p) => p.incoherence),
    ),
    detectionRate: wrong.length === 0 ? null : wrong.filter((p) => p.incoherence > 0).length / wrong.length,
    undetectedMeanError: mean(undetected.map((p) => p.error)),
    falsePositives: points.filter((p) => p.incoherence > 0 && p.error === 0).length,
    correctShare: points.length === 0 ? null : points.filter((p) => p.error === 0).length / points.length,
    coherentShare: points.length === 0 ? null : undetected.length / points.length,
  };
};

/**
 * Figure 1: Spearman's ρ across models between the share of tasks with Ê = 0 and the share with
 * Î = 0. Null with fewer than two models or a constant share.
 * @public
 */
export const rankingAgreement = (models: readonly ModelFigures[]): number | null => {
  const both = models.filter(
    (m): m is ModelFigures & { correctShare: number; coherentShare: number } =>
      m.correctShare !== null && m.coherentShare !== null,
  );
  return rho(
    both.map((m) => m.correctShare),
    both.map((m) => m.coherentShare),
  );
};

/** Mean of a figure over models that have it; null when none has. @public */
export const meanOver = (
  models: readonly ModelFigures[],
  pick: (m: ModelFigures) => number | null,
): number | null => mean(models.flatMap((m) => (pick(m) === null ? [] : [pick(m) as number])));
