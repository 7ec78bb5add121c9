import { loadPaperLog } from './dataset.ts';
import { type ModelFigures, modelFigures, rankingAgreement } from './figures.ts';

/**
 * The paper's own figures from `paper_logs/<model>.json`, restricted to the tasks this run
 * measured, so that a subset run compares like with like.
 */

/** Our figures beside the paper's. @public */
export interface PaperComparison {
  /** The paper's figures per model that has a log, in the order of our models. */
  readonly models: readonly ModelFigures[];
  readonly rankingAgreement: number | null;
  /** Mean over models with a log of |our mean incoherence − the paper's|. */
  readonly meanAbsIncoherenceDiff: number | null;
  /** The same for mean error. */
  readonly meanAbsErrorDiff: number | null;
}

/**
 * Reads the paper's logs for `models` (those without one are skipped) over `tasks`; null when the
 * dataset has no `paper_logs/` at all.
 * @public
 */
export const comparePaper = (
  dir: string,
  ours: readonly ModelFigures[],
  tasks: readonly string[],
): PaperComparison | null => {
  const wanted = new Set(tasks);
  const paper: ModelFigures[] = [];
  for (const o of ours) {
    const log = loadPaperLog(dir, o.model);
    if (!log) continue;
    const rows = log.filter((r) => wanted.has(r.taskId));
    const ok = rows.filter(
      (r): r is typeof r & { dis: number; err: number } =>
        r.failed === null && r.dis !== null && r.err !== null,
    );
    paper.push(
      modelFigures(
        o.model,
        ok.map((r) => ({ task: r.taskId, incoherence: r.dis, error: r.err })),
        rows.length - ok.length,
      ),
    );
  }
  if (paper.length === 0) return null;
  const diff = (pick: (m: ModelFigures) => number | null): number | null => {
    const gaps = paper.flatMap((p) => {
      const o = ours.find((m) => m.model === p.model);
      const a = o ? pick(o) : null;
      const b = pick(p);
      return a === null || b === null ? [] : [Math.abs(a - b)];
    });
    return gaps.length === 0 ? null : gaps.reduce((x, y) => x + y, 0) / gaps.length;
  };
  return {
    models: paper,
    rankingAgreement: rankingAgreement(paper),
    meanAbsIncoherenceDiff: diff((m) => m.meanIncoherence),
    meanAbsErrorDiff: diff((m) => m.meanError),
  };
};
