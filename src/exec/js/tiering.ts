/**
 * V8 flags for the sandbox host process: when its engine compiles candidate code with the
 * optimizing compiler.
 *
 * Every candidate runs in a context of its own, and V8 keeps optimized code per context: what
 * TurboFan compiles for one candidate (its function, the harness loop that calls it) is thrown
 * away when the candidate is done, often a few milliseconds later. V8 11.3 (Node 20) tiers up
 * straight from the baseline compiler to TurboFan after a small budget of work, so on a run of
 * many short candidates most of the sandbox's background CPU went to optimized code that was
 * used for a moment or never. Four times the default budget lets a candidate that runs long still
 * be optimized (a few milliseconds later), and one that runs briefly stay on baseline code.
 *
 * V8 12 and later (Node 22 and up) tier up through Maglev, a fast mid-tier compiler, and count
 * invocations rather than a budget; the flag is gone there (Node refuses to start with it), and
 * the same change of their counts measured no gain, so they run with V8's defaults.
 *
 * Flags change only when code is compiled, never what it computes: outcomes are the same.
 */

/** The default `--interrupt-budget` of V8 11.3, in bytes of bytecode run. */
const V8_11_INTERRUPT_BUDGET = 67_584;

/** The tiering flags for a sandbox host running on V8 `v8Version` (`process.versions.v8`). */
export const tieringFlags = (v8Version: string = process.versions.v8): string[] => {
  const [major = 0, minor = 0] = v8Version.split('.').map(Number);
  // 11.3 is Node 20's engine, where the flag was checked and measured; elsewhere a flag Node does
  // not know would stop the sandbox host from starting, so none is passed.
  return major === 11 && minor <= 3 ? [`--interrupt-budget=${V8_11_INTERRUPT_BUDGET * 4}`] : [];
};
