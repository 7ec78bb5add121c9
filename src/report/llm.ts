import type { Candidate, EquivalenceSummary, LlmProvenance } from '../candidates/index.ts';

/**
 * Tokens and cost of the model calls behind a check: carried on the candidates (their `llm`
 * provenance) into each record, summed per check, per model and for the suite. A call is counted
 * once in totals however many checks used it (deduplicated by `key/sample`); replayed calls are
 * shown as what they are worth at current prices, not as spent today, and a model without a
 * price costs `null`, never 0.
 * @packageDocumentation
 */

/** One model call in a record. @public */
export interface LlmCallRecord {
  /** `key/sample`: the same sample is the same call in every record and shard. */
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  readonly purpose: string;
  readonly live: boolean;
  readonly prompt: number | null;
  readonly cachedPrompt: number | null;
  readonly completion: number | null;
  readonly costUsd: number | null;
  readonly retries: number;
}

/** Sums over calls. @public */
export interface LlmTotals {
  readonly calls: number;
  readonly prompt: number;
  readonly completion: number;
  /** Sum over priced calls; null when none was priced. */
  readonly costUsd: number | null;
  readonly unpricedCalls: number;
  /** Calls whose server reported no token counts. */
  readonly unreportedCalls: number;
  readonly retries: number;
}

/** The calls behind one check. @public */
export interface LlmRecord {
  /** At most {@link MAX_RECORD_CALLS}; `truncated` says how many more there were. */
  readonly calls: readonly LlmCallRecord[];
  readonly truncated: number;
  readonly live: LlmTotals;
  readonly replayed: LlmTotals;
  /** Models without a price. */
  readonly unpriced: readonly string[];
  /**
   * Tokens and cost per candidate, in candidate order, when some candidate is a pipeline sample
   * (`candidates.fromPipeline`), whose calls depend on the inputs it ran on. Absent otherwise.
   */
  readonly candidates?: readonly LlmCandidateRow[];
  /**
   * Set when a model judged which outputs are equivalent (`judgedEquivalence`): who judged, how
   * many pairs and how, and its agreement on the labelled check pairs (null when none were
   * given). Its calls are among `calls`, with purpose `judge`.
   */
  readonly equivalence?: EquivalenceSummary;
}

/** One candidate's model calls, summed (live and replayed together). @public */
export interface LlmCandidateRow {
  readonly label: string;
  readonly calls: number;
  readonly prompt: number;
  readonly completion: number;
  /** Null when none of its calls was priced. */
  readonly costUsd: number | null;
}

/** Most calls listed in one record. @public */
export const MAX_RECORD_CALLS = 2000;

const empty = (): { -readonly [K in keyof LlmTotals]: LlmTotals[K] } => ({
  calls: 0,
  prompt: 0,
  completion: 0,
  costUsd: null,
  unpricedCalls: 0,
  unreportedCalls: 0,
  retries: 0,
});

const add = (t: ReturnType<typeof empty>, c: LlmCallRecord): void => {
  t.calls++;
  t.prompt += c.prompt ?? 0;
  t.completion += c.completion ?? 0;
  t.retries += c.retries;
  if (c.prompt === null || c.completion === null) t.unreportedCalls++;
  if (c.costUsd === null) t.unpricedCalls++;
  else t.costUsd = (t.costUsd ?? 0) + c.costUsd;
};

/** Live and replayed totals of calls, each id once. @public */
export const llmTotals = (
  calls: readonly LlmCallRecord[],
): { live: LlmTotals; replayed: LlmTotals; unpriced: string[] } => {
  const live = empty();
  const replayed = empty();
  const unpriced = new Set<string>();
  const seen = new Set<string>();
  for (const c of calls) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    add(c.live ? live : replayed, c);
    if (c.costUsd === null) unpriced.add(c.model);
  }
  return { live, replayed, unpriced: [...unpriced].sort() };
};

const callOf = (p: LlmProvenance): LlmCallRecord => ({
  id: `${p.key}/${p.sample}`,
  model: p.model,
  provider: p.provider,
  purpose: p.purpose,
  live: !p.cached,
  prompt: p.usage.prompt,
  cachedPrompt: p.usage.cachedPrompt,
  completion: p.usage.completion,
  costUsd: p.costUsd,
  retries: p.retries,
});

/** A candidate's model calls: its sampling call, or the calls its pipeline made so far. */
const callsOf = (c: Candidate): LlmCallRecord[] => {
  if (c.kind === 'source') return c.llm ? [callOf(c.llm)] : [];
  if (c.kind === 'function' && c.pipeline) return c.pipeline.calls().map(callOf);
  return [];
};

const candidateRow = (label: string, calls: readonly LlmCallRecord[]): LlmCandidateRow => {
  const { live, replayed } = llmTotals(calls);
  return {
    label,
    calls: live.calls + replayed.calls,
    prompt: live.prompt + replayed.prompt,
    completion: live.completion + replayed.completion,
    costUsd:
      live.costUsd === null && replayed.costUsd === null
        ? null
        : (live.costUsd ?? 0) + (replayed.costUsd ?? 0),
  };
};

/** The LLM record of a check from its candidates' provenance; null when none came from a model. @public */
export const llmRecord = (candidates: readonly Candidate[]): LlmRecord | null => {
  const perCandidate = candidates.map(callsOf);
  const groups = [
    ...new Set(
      candidates.flatMap((c) => (c.kind === 'function' && c.pipeline?.group ? [c.pipeline.group] : [])),
    ),
  ];
  const calls = [...perCandidate.flat(), ...groups.flatMap((g) => g.calls().map(callOf))];
  if (calls.length === 0) return null;
  const totals = llmTotals(calls);
  const piped = candidates.some((c) => c.kind === 'function' && c.pipeline);
  return {
    calls: calls.slice(0, MAX_RECORD_CALLS),
    truncated: Math.max(0, calls.length - MAX_RECORD_CALLS),
    ...totals,
    ...(piped
      ? { candidates: candidates.map((c, i) => candidateRow(c.label, perCandidate[i] as LlmCallRecord[])) }
      : {}),
    ...(groups[0] ? { equivalence: groups[0].summary() } : {}),
  };
};

/** The record's `tokens` field from its LLM record: every call, live or replayed. @internal */
export const tokensOf = (r: LlmRecord): { prompt: number; completion: number; costUsd: number | null } => ({
  prompt: r.live.prompt + r.replayed.prompt,
  completion: r.live.completion + r.replayed.completion,
  costUsd:
    r.live.costUsd === null && r.replayed.costUsd === null
      ? null
      : (r.live.costUsd ?? 0) + (r.replayed.costUsd ?? 0),
});

/** Tokens and cost of one model, suite-wide. @public */
export interface LlmModelRow {
  readonly model: string;
  readonly live: LlmTotals;
  readonly replayed: LlmTotals;
}

/** The suite's LLM section. @public */
export interface LlmSummary {
  readonly live: LlmTotals;
  readonly replayed: LlmTotals;
  readonly unpriced: ReadonlyArray<{ readonly model: string; readonly tokens: number }>;
  readonly models: readonly LlmModelRow[];
  readonly purposes: ReadonlyArray<{
    readonly purpose: string;
    readonly calls: number;
    readonly costUsd: number | null;
  }>;
  /** Calls left out of records past {@link MAX_RECORD_CALLS} (not in these totals). */
  readonly truncated: number;
}

/** The suite's LLM figures from every record's calls, each call once; null when no check used a model. @public */
export const llmSummary = (
  records: ReadonlyArray<{ readonly llm?: LlmRecord | null }>,
): LlmSummary | null => {
  const all = records.flatMap((r) => r.llm?.calls ?? []);
  if (all.length === 0) return null;
  const unique = [...new Map(all.map((c) => [c.id, c])).values()];
  const totals = llmTotals(unique);
  const group = <K extends 'model' | 'purpose'>(k: K) => {
    const m = new Map<string, LlmCallRecord[]>();
    for (const c of unique) m.set(c[k], [...(m.get(c[k]) ?? []), c]);
    return [...m].sort(([a], [b]) => a.localeCompare(b));
  };
  return {
    ...totals,
    unpriced: totals.unpriced.map((model) => ({
      model,
      tokens: unique
        .filter((c) => c.model === model)
        .reduce((s, c) => s + (c.prompt ?? 0) + (c.completion ?? 0), 0),
    })),
    models: group('model').map(([model, calls]) => ({ model, ...llmTotals(calls) })),
    purposes: group('purpose').map(([purpose, calls]) => {
      const t = llmTotals(calls);
      return {
        purpose,
        calls: calls.length,
        costUsd:
          t.live.costUsd === null && t.replayed.costUsd === null
            ? null
            : (t.live.costUsd ?? 0) + (t.replayed.costUsd ?? 0),
      };
    }),
    truncated: records.reduce((s, r) => s + (r.llm?.truncated ?? 0), 0),
  };
};

/** `$0.0123`, or `unpriced`. @public */
export const usd = (x: number | null): string =>
  x === null ? 'unpriced' : x === 0 ? '$0' : x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;

const k = (n: number): string => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString('en-US'));

/** One check's tokens: `1,234 tok · $0.0012`, or null without model calls. @public */
export const checkLlmText = (r: LlmRecord | null | undefined): string | null => {
  if (!r) return null;
  const tokens = r.live.prompt + r.live.completion + r.replayed.prompt + r.replayed.completion;
  const t = tokensOf(r);
  return `${k(tokens)} tok · ${usd(t.costUsd)}`;
};

/** The suite's LLM lines, shared by the terminal and Markdown renderers. @public */
export const llmSummaryLines = (s: LlmSummary): string[] => {
  const calls = s.live.calls + s.replayed.calls;
  const retries = s.live.retries;
  const spend = [
    s.live.calls === 0
      ? 'no live calls'
      : `live spend ${usd(s.live.costUsd)} (${k(s.live.prompt)} prompt + ${k(s.live.completion)} completion tokens)`,
    ...(s.replayed.calls === 0
      ? []
      : [
          `replayed calls worth ${usd(s.replayed.costUsd)} at current prices (${k(s.replayed.prompt)} prompt + ${k(s.replayed.completion)} completion tokens)`,
        ]),
  ];
  const lines = [
    `${calls.toLocaleString('en-US')} calls: ${s.live.calls} live, ${s.replayed.calls} replayed` +
      `${retries ? ` · ${retries} retr${retries === 1 ? 'y' : 'ies'}` : ''}`,
    spend.join(' · '),
  ];
  if (s.unpriced.length)
    lines.push(`unpriced: ${s.unpriced.map((u) => `${u.model} (${k(u.tokens)} tokens)`).join(', ')}`);
  if (s.models.length > 1 || s.purposes.length > 1) {
    lines.push(
      `by model: ${s.models
        .map(
          (m) =>
            `${m.model} ${k(m.live.prompt + m.live.completion + m.replayed.prompt + m.replayed.completion)} tok ${usd(m.live.costUsd === null && m.replayed.costUsd === null ? null : (m.live.costUsd ?? 0) + (m.replayed.costUsd ?? 0))}`,
        )
        .join(', ')}`,
    );
  }
  if (s.purposes.length > 1)
    lines.push(`by purpose: ${s.purposes.map((p) => `${p.purpose} ${usd(p.costUsd)}`).join(', ')}`);
  if (s.truncated) lines.push(`${s.truncated} calls past the per-record cap are not counted`);
  return lines;
};

/**
 * Who decided which outputs are equal, when a model did (`judgedEquivalence`): `equality judged
 * by gpt-4o: agreement 90% on 10 labelled pairs`, or `…: no labelled pairs`; null when equality
 * was not judged. A judge can err, so every report says when one decided and how far it was
 * checked. @internal
 */
export const equivalenceText = (r: LlmRecord | null | undefined): string | null => {
  const q = r?.equivalence;
  if (!q) return null;
  const checked =
    q.agreement === null || q.checked === 0
      ? 'no labelled pairs'
      : `agreement ${Math.round(q.agreement * 100)}% on ${q.checked} labelled pair${q.checked === 1 ? '' : 's'}`;
  return `equality judged by ${q.judge}: ${checked}`;
};

/**
 * Each pipeline sample's calls, tokens and cost, in candidate order: `{ label: 'total#0', text:
 * '3 calls · 1,200 prompt + 40 completion tokens · $0.0012' }`; empty when the record has no
 * per-candidate rows (its candidates were not pipeline samples). @internal
 */
export const candidateLlmLines = (
  r: LlmRecord | null | undefined,
): Array<{ readonly label: string; readonly text: string }> =>
  (r?.candidates ?? []).map((c) => ({
    label: c.label,
    text: `${c.calls.toLocaleString('en-US')} call${c.calls === 1 ? '' : 's'} · ${k(c.prompt)} prompt + ${k(c.completion)} completion tokens · ${usd(c.costUsd)}`,
  }));
