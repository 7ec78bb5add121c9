import type { EquivalenceSummary, LlmProvenance, PipelineGroup } from '../candidates/index.ts';
import {
  CrosscheckError,
  checkKeys,
  describeValue,
  isCrosscheckError,
  knownKeys,
  readLabel,
} from '../errors/index.ts';
import { encode } from '../values/index.ts';
import { provenanceOf } from './provenance.ts';
import { requireLlm } from './require-llm.ts';
import type { Llm } from './types.ts';

/** A labelled pair the judge is checked on: are `a` and `b` the same answer for `input`? @public */
export interface EquivalenceCheck {
  readonly input: unknown;
  readonly a: unknown;
  readonly b: unknown;
  readonly equivalent: boolean;
}

/** Options of {@link judgedEquivalence}. @public */
export interface JudgedEquivalenceOptions {
  /** The judge's client (`createLlm(...)`); its calls are cached like every other. */
  llm: Llm;
  /** What the outputs are answers to, in words: the judge reads it. */
  specification: string;
  /** Labelled pairs: the judge's agreement with them goes into every record it decided. */
  check?: readonly EquivalenceCheck[];
}

const KEYS = knownKeys<JudgedEquivalenceOptions>({ llm: true, specification: true, check: true });
const WHERE = 'judgedEquivalence({ llm, specification })';

/**
 * An LLM-judged equivalence for the samples of one pipeline: `fromPipeline(fn, { llm, n,
 * equivalence: judgedEquivalence({ llm: judge, specification }) })`. @public
 */
export interface JudgedEquivalence {
  readonly kind: 'judged-equivalence';
  /** What the runner calls: clusters one input's outputs. @internal */
  readonly group: PipelineGroup;
}

/** The text of a value for the judge and for canonical order: its tagged JSON. */
const show = (x: unknown): string => {
  try {
    return JSON.stringify(encode(x));
  } catch {
    return String(x);
  }
};

type Verdict = 'equivalent' | 'different' | 'garbage' | 'failed';

/** Errors every other judge call would meet too: they end the run. */
const FATAL = new Set(['LLM_REPLAY_MISS', 'LLM_CONFIG', 'LLM_QUOTA', 'LLM_CACHE_CORRUPT', 'ABORTED']);

/** The one verdict line, or garbage: anything else is never read as "equivalent". */
const verdictOf = (text: string): Verdict => {
  const found = [...text.matchAll(/^\s*VERDICT:\s*(EQUIVALENT|DIFFERENT)\s*$/gim)];
  if (found.length !== 1) return 'garbage';
  return (found[0]?.[1] ?? '').toUpperCase() === 'EQUIVALENT' ? 'equivalent' : 'different';
};

/**
 * Asks a model whether two outputs of a pipeline on one input are the same answer. Distinct
 * outputs of one input are clustered: each joins the first cluster the judge calls equivalent,
 * else starts its own; the runner then gives every output of a cluster its first member's value,
 * so the usual equality sees them equal. A reply without exactly one `VERDICT:` line is counted
 * as garbage and never read as "equivalent": an output the judge could not place is an unknown
 * cell (`crash`, reason saying so), which the unknown-cell policy then weighs.
 * @public
 */
export const judgedEquivalence = (options: JudgedEquivalenceOptions): JudgedEquivalence => {
  if (typeof options !== 'object' || options === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: expected options { llm, specification }, got ${describeValue(options)}.`,
      { where: WHERE },
    );
  }
  checkKeys({ where: WHERE }, options, KEYS);
  const llm = requireLlm(WHERE, options.llm, 'chat');
  const specification = readLabel({ where: WHERE, field: 'specification' }, options.specification);
  if (specification === undefined) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`specification\` is required: say in words what the outputs answer, e.g. 'the fields of the invoice'.`,
      { where: WHERE },
    );
  }
  const check = options.check ?? [];
  if (
    !Array.isArray(check) ||
    !check.every((c) => typeof c === 'object' && c !== null && typeof c.equivalent === 'boolean')
  ) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`check\` must be a list of { input, a, b, equivalent: boolean }, got ${describeValue(check)}.`,
      { where: WHERE },
    );
  }
  const calls = new Map<string, LlmProvenance>();
  const counts = { pairs: 0, equivalent: 0, different: 0, garbage: 0, failed: 0, undecided: 0 };
  const ask = async (input: unknown, a: unknown, b: unknown, signal?: AbortSignal): Promise<Verdict> => {
    try {
      return await askOnce(input, a, b, signal);
    } catch (error) {
      if (!isCrosscheckError(error) || FATAL.has(error.code)) throw error;
      return 'failed';
    }
  };
  const askOnce = async (input: unknown, a: unknown, b: unknown, signal?: AbortSignal): Promise<Verdict> => {
    // The pair in canonical order: the same two outputs are the same cached question.
    const [x, y] = [show(a), show(b)].sort() as [string, string];
    const c = await llm.chat(
      {
        purpose: 'judge',
        label: 'equivalence of two outputs',
        sampling: { temperature: 0 },
        messages: [
          {
            role: 'system',
            content:
              'You decide whether two outputs of the same program on the same input are the same answer: equal in meaning under the specification, however they are spelled. End with exactly one line: VERDICT: EQUIVALENT or VERDICT: DIFFERENT.',
          },
          {
            role: 'user',
            content: `Specification:\n${specification}\n\n<<<INPUT\n${show(input)}\nINPUT>>>\n\n<<<OUTPUT A\n${x}\nOUTPUT A>>>\n\n<<<OUTPUT B\n${y}\nOUTPUT B>>>`,
          },
        ],
      },
      { sample: 0, signal },
    );
    const id = `${c.key}/${c.sample}`;
    if (!calls.has(id)) calls.set(id, provenanceOf(c));
    return verdictOf(c.text);
  };
  let agreement: Promise<number | null> | null = null;
  const checked = (signal?: AbortSignal): Promise<number | null> => {
    agreement ??= (async () => {
      if (check.length === 0) return null;
      const got = await Promise.all(check.map((c) => ask(c.input, c.a, c.b, signal)));
      const agree = got.filter((v, i) => v === (check[i]?.equivalent ? 'equivalent' : 'different')).length;
      return agree / check.length;
    })();
    return agreement;
  };
  let rate: number | null = null;
  const group: PipelineGroup = Object.freeze({
    async canonicalize(input: unknown, values: readonly unknown[], signal?: AbortSignal) {
      rate = await checked(signal);
      const clusters: { key: string; value: unknown }[] = [];
      const placed = new Map<string, { value: unknown } | null>();
      for (const value of values) {
        const key = show(value);
        if (placed.has(key)) continue;
        let home: { value: unknown } | null = null;
        let unsure = false;
        for (const cluster of clusters) {
          const verdict = await ask(input, cluster.value, value, signal);
          counts.pairs++;
          counts[verdict]++;
          if (verdict === 'equivalent') {
            home = cluster;
            break;
          }
          if (verdict === 'garbage' || verdict === 'failed') unsure = true;
        }
        if (home === null && unsure) {
          counts.undecided++;
          placed.set(key, null);
          continue;
        }
        if (home === null) {
          home = { value };
          clusters.push({ key, value });
        }
        placed.set(key, home);
      }
      return values.map((v) => {
        const home = placed.get(show(v));
        return home === null || home === undefined ? { undecided: true as const } : { value: home.value };
      });
    },
    summary: (): EquivalenceSummary => ({
      judge: llm.model,
      ...counts,
      agreement: rate,
      checked: check.length,
    }),
    calls: () => [...calls.values()],
  });
  return Object.freeze({ kind: 'judged-equivalence' as const, group });
};
