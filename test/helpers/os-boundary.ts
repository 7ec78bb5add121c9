import { type IsolationMode, resolveIsolation } from '../../src/index.ts';

/**
 * Whether the OS boundary runs here. Without bubblewrap a test file's 'os' cases are skipped and
 * it says so (as `file`); under CI, or when CROSSCHECK_ISOLATION=os demands it, a missing
 * boundary fails instead.
 */
export const osBoundaryAvailable = (file: string): boolean => {
  const available = (() => {
    try {
      return resolveIsolation('os') === 'os';
    } catch (error) {
      if (process.env.CROSSCHECK_ISOLATION === 'os' || process.env.CI) throw error;
      return false;
    }
  })();
  if (!available) console.warn(`${file}: no bubblewrap here, the 'os' cases are skipped`);
  return available;
};

/** The isolation modes a file's cases run under, each with whether it runs here. */
export const isolationModes = (file: string): ReadonlyArray<readonly [IsolationMode, boolean]> => [
  ['process', true],
  ['os', osBoundaryAvailable(file)],
];
