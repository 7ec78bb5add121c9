import { checkProbability } from './hoeffding.ts';

/**
 * Inputs PAC detection needs (Theorem 4.3, appendix C.3 of the incoherence paper): with
 * N = ⌈ln δ / ln(1 − ε)⌉ disagreement-free draws, a coder with incoherence ≥ ε would have shown a
 * disagreement with probability at least 1 − δ, since (1 − ε)^N ≤ δ.
 * @public
 */
export const pacDetectionSamples = (epsilon: number, delta: number): number => {
  const where = 'pacDetectionSamples(epsilon, delta)';
  checkProbability('epsilon', epsilon, where);
  checkProbability('delta', delta, where);
  // log1p keeps precision for tiny ε, where 1 − ε rounds.
  const n = Math.ceil(Math.log(delta) / Math.log1p(-epsilon));
  // Guard the ceiling against rounding just below an integer: the bound must hold exactly.
  return (1 - epsilon) ** n <= delta ? n : n + 1;
};
