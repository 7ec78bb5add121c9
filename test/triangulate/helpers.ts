import { type Candidate, fromFunctions, fromSources } from '../../src/candidates/index.ts';
import type { Args } from '../../src/inputs/index.ts';
import type { Task } from '../../src/task/index.ts';
import { type TriangulateOptions, triangulate, type WitnessProgram } from '../../src/triangulate/index.ts';

/** Python programs by name: `py({ P_OK: 'def plus(a, b): ...' }, 'plus')`. */
export const py = (sources: Record<string, string>, entry: string): Record<string, Candidate> =>
  Object.fromEntries(
    Object.entries(sources).map(([label, source]) => [
      label,
      fromSources([{ source, label }], { language: 'python', entry })[0] as Candidate,
    ]),
  );

/** Trusted JS functions by name. */
export const js = (fns: Record<string, (...args: never[]) => unknown>): Record<string, Candidate> =>
  Object.fromEntries(fromFunctions(fns).map((c) => [c.label, c]));

/** Whether φ(p, q) holds (single pair, last stage). */
export const holds = async (
  task: Task,
  p: Candidate,
  q: WitnessProgram,
  options: Omit<TriangulateOptions<Args>, 'witnesses'>,
): Promise<boolean> => {
  const r = await triangulate(task, [p], { ...options, witnesses: [q] });
  const last = r.stages[r.stages.length - 1];
  const v = last?.pairs[0]?.[0];
  return v?.kind === 'holds' || v?.kind === 'inherited';
};

/** Labels of selected candidate, or 'abstain'. */
export const chosen = (r: Awaited<ReturnType<typeof triangulate>>): string => r.selected?.label ?? 'abstain';

export const invalidPy = "raise ValueError('Invalid input')";
