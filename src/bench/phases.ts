/**
 * Host CPU time of a benchmark's phases in this process, summed over runs, for the breakdown of
 * `npm run bench:floor`. Reset it before a run and read it after: the benchmark itself does not
 * depend on it.
 * @internal
 */
export const benchPhases = {
  /** Outcomes turned into comparable cells: parsing values, canonical keys. */
  cellsMs: 0,
  /** Pair counts, groups, error draws, classes, intervals and records over the cells. */
  analysisMs: 0,
};

/** Sets every phase back to zero. @internal */
export const resetBenchPhases = (): void => {
  benchPhases.cellsMs = 0;
  benchPhases.analysisMs = 0;
};

/** CPU time of this process, in ms. @internal */
export const cpuNowMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
