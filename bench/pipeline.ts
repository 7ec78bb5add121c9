/**
 * Incoherence of an LLM pipeline against its true error, at known error rates:
 * `npm run bench:pipeline` (PIPELINE_N inputs, default 400; 5 samples each).
 *
 * A scripted loopback model answers invoice totals; on the invoices with a discount (half of
 * them) each sample forgets the discount with probability p (bench/pipeline-simulation.ts). For
 * each p the table shows the true error E (measured against the true totals), what E would be
 * over infinitely many inputs, the incoherence I expected (half the inputs × 2p(1 − p)), Î with its 95% interval (no labels used), and the
 * lower bound on the error it gives: Î/2, and max(0, Î − ε)/2 at confidence 0.95, where ε is the
 * interval's half-width. The bound must stay at or below E. Ends with one JSON line.
 */
import { type SimulationRow, simulate } from './pipeline-simulation.ts';

const N = Number(process.env.PIPELINE_N ?? 400);
const RATES = [0, 0.05, 0.2, 0.5] as const;

const f = (x: number): string => x.toFixed(3);
const rows: SimulationRow[] = [];
for (const p of RATES) rows.push(await simulate({ p, n: N }));

const header = [
  'p',
  'E expected',
  'E true',
  'I expected',
  'Î',
  '95% interval',
  'ε',
  'Î/2',
  'bound (Î−ε)/2',
  'bound ≤ E',
];
const lines = rows.map((r) => [
  f(r.p),
  f(r.expectedError),
  f(r.trueError),
  f(r.expectedIncoherence),
  f(r.incoherence),
  `[${f(r.lower)}, ${f(r.upper)}]`,
  f(r.epsilon),
  f(r.boundPoint),
  f(r.bound),
  r.bound <= r.trueError ? 'yes' : 'NO',
]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
const show = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] as number)).join('  ');
console.log(`m = ${rows[0]?.m} samples, n = ${N} inputs, half of them with a discount; δ = 0.05`);
console.log(show(header));
for (const l of lines) console.log(show(l));
console.log(JSON.stringify({ bench: 'pipeline', n: N, rows }));
