/**
 * A pipeline whose error rate is known, run through the public API: an invoice-total extractor
 * over crosscheck's scripted OpenAI-compatible server on 127.0.0.1. The server answers every
 * invoice correctly, except that on the invoices that carry a discount (a share `classShare` of
 * the inputs) each sample independently forgets the discount with probability `p`. Forgetting it
 * gives one and the same wrong total, so two wrong samples agree with each other: incoherence
 * then sees only the pairs that split, which is why it bounds the error from below.
 *
 * Expected figures, per input drawn: the true error E = classShare · p; the incoherence (share of
 * sample pairs that disagree) I = classShare · 2p(1 − p); and I ≤ 2E always holds.
 * Used by `npm run bench:pipeline` and by test/llm/pipeline-simulation.test.ts.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { candidates, createLlm, defineTask, gen, measure, type PipelineLlm } from '../src/index.ts';
import { startScriptedLlmServer } from '../src/llm/testing/index.ts';

/** One simulated rate. */
export interface SimulationRow {
  readonly p: number;
  /** Samples (candidates) and inputs measured. */
  readonly m: number;
  readonly n: number;
  /** classShare · p: what the error would be over infinitely many inputs. */
  readonly expectedError: number;
  /** classShare · 2p(1 − p): what the incoherence would be over infinitely many inputs. */
  readonly expectedIncoherence: number;
  /** The error measured against the true totals (the task's reference). */
  readonly trueError: number;
  /** Incoherence measured with no labels, and its interval at confidence 1 − δ. */
  readonly incoherence: number;
  readonly lower: number;
  readonly upper: number;
  /** Half-width of the interval: the narrower of Hoeffding's and empirical Bernstein's (`measure`'s all-pairs interval). */
  readonly epsilon: number;
  /** Î/2: the error lower bound's point estimate. */
  readonly boundPoint: number;
  /** max(0, Î − ε)/2: the error lower bound at confidence 1 − δ. */
  readonly bound: number;
}

/** Options of {@link simulate}. */
export interface SimulationOptions {
  readonly p: number;
  readonly m?: number;
  readonly n?: number;
  readonly classShare?: number;
  readonly seed?: number;
}

/** A uniform number in [0, 1) from text: the server's coin, the same on every run. */
const coin = (text: string): number => createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;

const numbersOf = (text: string): number[] => (text.match(/-?\d+/g) ?? []).map(Number);

/** The true total: items added, a discount subtracted. */
const trueTotal = (invoice: string): number => {
  const [items = '', discount] = invoice.split(' discount ');
  const sum = numbersOf(items).reduce((a, b) => a + b, 0);
  return discount === undefined ? sum : sum - Number(discount);
};

/** The pipeline: prompt, call, parse. */
const extractTotal = async (invoice: string, llm: PipelineLlm): Promise<number | null> => {
  const reply = await llm.complete(`Return the amount due of this invoice as "Total: <n>".\n${invoice}`);
  const m = /Total: (-?\d+)/.exec(reply);
  return m ? Number(m[1]) : null;
};

/** Invoices: 1 to 4 item amounts, and a discount on a share of them. */
const invoices = (classShare: number) =>
  gen.fromArbitrary(
    fc.tuple(
      fc
        .record({
          items: fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 4 }),
          // A discount with probability classShare (a 1000-sided die).
          die: fc.integer({ min: 0, max: 999 }),
          discount: fc.integer({ min: 1, max: 50 }),
        })
        .map(({ items, die, discount }) => {
          const lines = items.map((x, i) => `item ${i + 1}: ${x}`).join(', ');
          return die < classShare * 1000 ? `${lines} discount ${discount}` : lines;
        }),
    ),
    { description: `invoices, ${classShare * 100}% with a discount` },
  );

/** Runs the simulation at one rate and returns its figures. */
export const simulate = async (options: SimulationOptions): Promise<SimulationRow> => {
  const { p, m = 5, n = 400, classShare = 0.5, seed = 1 } = options;
  const server = await startScriptedLlmServer({
    rules: [
      {
        reply: (req) => {
          const invoice = req.lastUser.split('\n')[1] ?? '';
          const forgets = invoice.includes('discount') && coin(`${p}|${invoice}|${req.sample}`) < p;
          const total = forgets ? trueTotal(invoice.split(' discount ')[0] as string) : trueTotal(invoice);
          return `Total: ${total}`;
        },
      },
    ],
  });
  try {
    const llm = createLlm({ model: 'sim', baseURL: server.url, cache: false, maxConcurrency: 16 });
    const task = defineTask({ name: 'invoiceTotal', reference: trueTotal });
    const samples = candidates.fromPipeline(extractTotal, { llm, n: m, concurrency: 16 });
    const r = await measure(task, samples, { inputs: invoices(classShare), n, seed, shrink: false });
    const inc = r.incoherence;
    if (inc === null || r.error === null) throw new Error(`inconclusive: ${r.inconclusive}`);
    return {
      p,
      m,
      n,
      expectedError: classShare * p,
      expectedIncoherence: classShare * 2 * p * (1 - p),
      trueError: r.error.estimate,
      incoherence: inc.estimate,
      lower: inc.lower,
      upper: inc.upper,
      epsilon: inc.epsilon,
      boundPoint: inc.estimate / 2,
      bound: r.errorLowerBound ?? 0,
    };
  } finally {
    await server.close();
  }
};
