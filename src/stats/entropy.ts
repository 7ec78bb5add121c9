/**
 * Shannon entropy in nats of the distribution given by non-negative counts (semantic entropy when
 * the counts are the sizes of the candidates' equivalence classes). 0 for one class; ln m for m
 * singletons.
 * @public
 */
export const entropy = (counts: readonly number[]): number => {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= 0) return 0;
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / total) * Math.log(c / total);
  // -0 and 1e-17 noise read badly in reports.
  return h < 1e-12 ? 0 : h;
};
