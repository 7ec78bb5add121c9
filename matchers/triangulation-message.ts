import type { Candidate } from '../src/candidates/index.ts';
import type { Args } from '../src/inputs/index.ts';
import type { CandidateSupport, TriangulationResult } from '../src/triangulate/index.ts';

/** What a hyperproperty inverts, for the summary line: "FWD-INV w.r.t. s". */
export const schemeText = (r: TriangulationResult): string => {
  const m = /^([a-z-]+)\(([^)]*)\)/.exec(r.transformation);
  return m
    ? `${(m[1] as string).toUpperCase()} w.r.t. ${m[2]}${r.transformation.slice(m[0].length)}`
    : r.transformation;
};

const sideName = (r: TriangulationResult): string => {
  const s = r.stages[0]?.name ?? '';
  return s === 'fwd-inv'
    ? 'inverse'
    : s === 'fwd-sinv'
      ? 'set-valued inverse'
      : s === 'enum-sinv'
        ? 'set-valued inverse'
        : 'witness';
};

/** `Task "shift", FWD-INV w.r.t. s (artifact semantics, angelic threshold 0.34): 3 forward × 2 inverse candidates on 6 inputs (5 inverse inputs).` */
export const summaryText = (r: TriangulationResult, witnesses: number): string =>
  `Task ${JSON.stringify(r.task)}, ${schemeText(r)} (${r.preset} semantics, angelic threshold ${Number(r.semantics.angelicThreshold.toPrecision(3))}): ` +
  `${r.candidates.length} forward × ${witnesses} ${sideName(r)} candidates on ${r.inputs.forward} inputs (${r.inputs.transformed} ${sideName(r)} inputs).`;

export const pairsText = (r: TriangulationResult): string => {
  const last = r.stages[r.stages.length - 1];
  const all = last?.pairs.flat() ?? [];
  const hold = all.filter((v) => v.kind === 'holds' || v.kind === 'inherited').length;
  return `${hold} of ${all.length} pairs hold`;
};

export const supportLine = (r: TriangulationResult): string =>
  r.candidates.map((c) => `${c.label} ${c.support}`).join(' · ');

/** Up to three counterexamples, one per distinct forward candidate, as indented lines. */
export const counterexampleLines = (cs: readonly CandidateSupport[], max = 3): string[] => {
  const out: string[] = [];
  for (const c of cs.filter((x) => x.counterexample !== null).slice(0, max)) {
    const cx = c.counterexample!;
    out.push(`Counterexample (${c.label} vs ${cx.witness}, clause ${cx.clause}):`);
    out.push(`  input    ${cx.input}`);
    for (const call of cx.calls) out.push(`  ${call.program.padEnd(8)} ${call.call} → ${call.outcome}`);
    if (cx.result === 'angelic-share') {
      out.push(
        `  result   ${Math.round((cx.angelicShare ?? 0) * 100)}% of the elements were angelic (invalid inputs tolerated, or values outside a Subset answer): at or above the threshold`,
      );
    } else
      out.push(
        `  result   ${cx.result === 'false' ? 'the clause is false' : cx.result === 'U' ? 'U: an input the program declared invalid' : 'D: an error, timeout or crash'}`,
      );
  }
  return out;
};

/** The forward classes as plurality sees them: `{a, b, c} agree on every input`. */
export const classesText = (
  classes: readonly (readonly number[])[],
  forward: readonly Candidate[],
): string | null => {
  const big = classes.filter((c) => c.length >= 2);
  if (big.length === 0) return null;
  const largest = big.reduce((a, b) => (b.length > a.length ? b : a));
  const labels = largest.map((i) => forward[i]?.label ?? String(i));
  const all = largest.length === forward.length;
  return `{${labels.join(', ')}} agree on every input${all ? ' (plurality and majority select it)' : ' (plurality selects it)'}`;
};

export const argsText = (xs: readonly Args[] | undefined): string =>
  xs ? `${xs.length} inputs` : 'the task inputs';

/** `P_OK: FWD-INV(0) held with Q1, Q2; inherited Q3 · witnesses Q1, Q2, Q3`: why a program has its support. */
export const passedText = (c: CandidateSupport): string => {
  const stages = c.passed
    .filter((p) => p.held.length + p.inherited.length > 0)
    .map(
      (p) =>
        `${p.hyperproperty} held with ${p.held.join(', ') || 'none'}${p.inherited.length > 0 ? `; inherited ${p.inherited.join(', ')} (not checked against ${c.label})` : ''}`,
    );
  return `${c.label}: ${stages.join(' → ') || 'no stage held'} · witnesses ${c.witnesses.join(', ') || 'none'}`;
};

/** What a selection or a witness does not prove, for the message of a pass. */
export const DOES_NOT_PROVE =
  'A selection is evidence, not proof of correctness: a witness that shares the forward bug confirms it, ' +
  'a witness taken over by inheritance was never checked against the program that inherited it, ' +
  'and inputs a program declares invalid count as angelic up to the threshold (docs/triangulation.md, "What a pass does not prove").';
