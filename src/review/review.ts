import type { Candidate } from '../candidates/index.ts';
import { CrosscheckError } from '../errors/index.ts';
import { describeOutcome, type Outcome, run } from '../exec/index.ts';
import type { Args } from '../inputs/index.ts';
import { defineTask, type Task } from '../task/index.ts';
import { encode } from '../values/index.ts';
import { coverageTwin, twinLines } from './coverage.ts';
import { tallyCalls } from './ledger.ts';
import type { ResolvedReviewOptions } from './options.ts';
import {
  arityOf,
  type InputLine,
  parseInputs,
  parseProperties,
  parseScenarios,
  parseVerdict,
} from './parse.ts';
import type { ReviewCall, ReviewMessage, ReviewPurpose } from './port.ts';
import {
  type FailedInput,
  inputsPrompt,
  judgePrompt,
  propertiesPrompt,
  reaskMessages,
  repairPrompt,
  type SpecView,
  scenariosPrompt,
} from './prompts.ts';
import { literal } from './render.ts';
import type {
  JudgeVerdict,
  Review,
  ReviewedInput,
  ReviewedScenario,
  ReviewReason,
  Scenario,
} from './types.ts';

/** Thrown inside a review when the call cap is reached; ends it as `inconclusive('budget')`. */
class CallBudgetSpent extends Error {}

/** The model side of one review: counts calls against the cap and keeps them for the record. */
class Conversation {
  #slots: (ReviewCall | undefined)[] = [];
  #issued = 0;
  get calls(): ReviewCall[] {
    return this.#slots.filter((c): c is ReviewCall => c !== undefined);
  }
  constructor(private readonly o: ResolvedReviewOptions) {}

  async ask(
    who: 'llm' | 'judge',
    purpose: ReviewPurpose,
    messages: readonly ReviewMessage[],
  ): Promise<string> {
    if (this.#issued >= this.o.maxCalls) throw new CallBudgetSpent();
    // Calls are listed in the order they were issued, not answered, so records are deterministic.
    const slot = this.#issued++;
    const reply = await this.o[who].ask(purpose, messages, {
      sample: this.o.seed,
      temperature: this.o.temperature,
      signal: this.o.signal,
    });
    this.#slots[slot] = reply.call;
    return reply.text;
  }
}

/** The literal syntax of a candidate's inputs and outputs. */
export const syntaxOf = (c: Candidate): 'python' | 'json' =>
  c.kind !== 'function' && c.language === 'python' ? 'python' : 'json';

/** The task as review sees it: what every prompt says, checked once. */
export const specOf = (task: Task, candidate: Candidate, where: string): SpecView => {
  if (!task.description || task.description.trim() === '') {
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: task \`${task.name}\` has no \`description\`; grounded review reads the specification and nothing else. Add defineTask({ description: '…' }).`,
      { where },
    );
  }
  const entry = task.entry ?? (candidate.kind === 'function' ? undefined : candidate.entry);
  if (!entry) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: task \`${task.name}\` names no function; the prompts need its name. Add defineTask({ entry: '…' }).`,
      { where },
    );
  }
  return {
    entry,
    signature: task.signature ?? '(…)',
    description: task.description,
    syntax: syntaxOf(candidate),
  };
};

/**
 * An input as the judge and the report show it: a Python tuple literal for Python candidates, a
 * JSON array otherwise.
 * @public
 */
export const showInput = (args: Args, syntax: 'python' | 'json'): string => {
  const tagged = encode(args);
  return syntax === 'python' ? literal({ $tuple: tagged }, 'python') : literal(tagged, 'json');
};

/**
 * An outcome as the judge sees it: `returned: <value>` or `raised <Name>: <message>`.
 * @public
 */
export const showOutcome = (o: Outcome, syntax: 'python' | 'json'): string => {
  switch (o.kind) {
    case 'value':
      return `returned: ${literal(o.tagged, syntax)}`;
    case 'invalid':
    case 'error':
      return `raised ${o.name}: ${o.message}`;
    default:
      return describeOutcome(o);
  }
};

/**
 * The task as review runs it: no reference run and no task inputs; the rest (limits, equality,
 * invalid-input classes) applies unchanged. @internal
 */
export const bareTask = (task: Task): Task =>
  defineTask({
    name: task.name,
    entry: task.entry,
    signature: task.signature,
    description: task.description,
    equality: task.equality,
    invalidInput: task.invalidInput,
    timeoutMs: task.timeoutMs,
  });

/** One kept input: what the judge will see about it. */
interface Kept {
  readonly args: Args;
  readonly input: string;
  readonly outcome: Outcome;
  readonly lines: readonly number[] | null;
  /** The candidate failed here and this vouched for the input (see `confirmInputsWith`). */
  readonly confirmedBy?: 'reference' | 'pool';
}

/** Says, per input, whether a trusted source vouches for it (`confirmInputsWith`); null when off. */
type Confirmer = ((inputs: readonly Args[]) => Promise<boolean[]>) | null;

/**
 * The confirmer of `confirmInputsWith`: the task's reference returns a value there, or a strict
 * majority of the other pool samples does.
 */
const confirmerFor = (
  task: Task,
  candidate: Candidate,
  o: ResolvedReviewOptions,
  where: string,
): Confirmer => {
  if (o.confirmInputsWith === null) return null;
  const bare = bareTask(task);
  if (o.confirmInputsWith === 'reference') {
    const reference = task.reference;
    if (!reference)
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`confirmInputsWith: 'reference'\` needs a task with a reference, and task \`${task.name}\` has none. Add defineTask({ reference }) or use 'pool' with { pool }.`,
        { where },
      );
    return async (inputs) => {
      const m = await run(bare, [reference], inputs, { ...o.run, signal: o.signal });
      return inputs.map((_, j) => m.outcomes[0]?.[j]?.kind === 'value');
    };
  }
  const others = o.pool.filter((c) => c.id !== candidate.id);
  return async (inputs) => {
    if (others.length === 0) return inputs.map(() => false);
    const m = await run(bare, others, inputs, { ...o.run, signal: o.signal });
    return inputs.map((_, j) => {
      const values = m.outcomes.filter((row) => row[j]?.kind === 'value').length;
      return values * 2 > others.length;
    });
  };
};

/** What runs candidate calls for a review: the candidate and its coverage twin, side by side. */
export interface Executor {
  readonly dedup: 'lines' | 'input-key';
  exec(inputs: readonly Args[]): Promise<Array<{ outcome: Outcome; lines: readonly number[] | null }>>;
}

/** Runs inputs on the candidate (outputs) and its coverage twin (line sets) through the runners. */
export const executorFor = (task: Task, candidate: Candidate, o: ResolvedReviewOptions): Executor => {
  const bare = bareTask(task);
  const twin = coverageTwin(candidate);
  // A twin that reports no lines (the Python sandbox refuses tracing to candidate code) leaves
  // exact duplicates as the only dedup, and the review then says so.
  let linesLost = false;
  return {
    get dedup() {
      return twin && !linesLost ? 'lines' : 'input-key';
    },
    async exec(inputs) {
      if (inputs.length === 0) return [];
      const rows = twin ? [candidate, twin] : [candidate];
      const matrix = await run(bare, rows, inputs, { ...o.run, signal: o.signal });
      const out = inputs.map((_, j) => ({
        outcome: matrix.outcomes[0]?.[j] as Outcome,
        lines: twin ? twinLines(matrix.outcomes[1]?.[j]) : null,
      }));
      if (twin && out.some((r) => r.lines === null && r.outcome.kind === 'value')) linesLost = true;
      // One dedup rule per review: without lines for every input, none are used.
      return linesLost ? out.map((r) => ({ ...r, lines: null })) : out;
    },
  };
};

/** A coverage class: the sorted line set, or the input itself when lines are unknown. */
const coverageKey = (k: Kept, key: string): string => (k.lines ? `L${k.lines.join(',')}` : `I${key}`);

const isValid = (o: Outcome, judgeRejections: boolean): boolean =>
  o.kind === 'value' || (judgeRejections && o.kind === 'invalid');

interface ScenarioRun {
  readonly reviewed: Omit<ReviewedScenario, 'inputs'>;
  readonly kept: readonly Kept[];
  /** Inputs that parsed, so the candidate ran on them: 0 means only the generator failed. */
  readonly ran: number;
}

/** Generation, validation, repair and coverage dedup for one scenario (design §B3). */
const runScenario = async (
  chat: Conversation,
  spec: SpecView,
  properties: string,
  scenario: Scenario,
  executor: Executor,
  seen: Set<string>,
  o: ResolvedReviewOptions,
  confirm: Confirmer,
): Promise<ScenarioRun> => {
  const k = o.inputsPerScenario;
  const arity = arityOf(spec.signature);
  let steps = 1;
  let generated = 0;
  let validCount = 0;
  let ran = 0;
  const valid: Array<Kept & { key: string }> = [];
  let lastErrors: string[] = [];
  let reply = await chat.ask('llm', 'inputs', inputsPrompt(spec, properties, scenario, 2 * k));
  for (;;) {
    const lines: InputLine[] = parseInputs(reply, spec.syntax, spec.entry, arity);
    generated += lines.length;
    const failed: FailedInput[] = lines.flatMap((l) =>
      'problem' in l ? [{ text: l.text, problem: l.problem }] : [],
    );
    if (lines.length === 0) failed.push({ text: '(no inputs)', problem: 'the reply held no input lines' });
    const runnable = lines.filter((l): l is { text: string; args: Args } => 'args' in l);
    ran += runnable.length;
    const results = await executor.exec(runnable.map((l) => l.args));
    // Inputs the candidate failed on, vouched for by the reference or the pool: judged, not repaired.
    const failing = runnable.flatMap((_line, i) =>
      isValid((results[i] as { outcome: Outcome }).outcome, o.judgeRejections) ? [] : [i],
    );
    const vouched = new Set<number>();
    if (confirm && failing.length > 0) {
      const ok = await confirm(failing.map((i) => (runnable[i] as { args: Args }).args));
      failing.forEach((i, k) => {
        if (ok[k]) vouched.add(i);
      });
    }
    runnable.forEach((l, i) => {
      const r = results[i] as { outcome: Outcome; lines: readonly number[] | null };
      if (!isValid(r.outcome, o.judgeRejections) && !vouched.has(i)) {
        failed.push({ text: l.text, problem: describeOutcome(r.outcome) });
        return;
      }
      validCount++;
      const key = JSON.stringify(encode(l.args));
      // Exact duplicates are dropped across all scenarios: one input is judged once.
      if (seen.has(key)) return;
      seen.add(key);
      valid.push({
        args: l.args,
        input: showInput(l.args, spec.syntax),
        outcome: r.outcome,
        lines: r.lines,
        key,
        ...(vouched.has(i) ? { confirmedBy: o.confirmInputsWith as 'reference' | 'pool' } : {}),
      });
    });
    lastErrors = failed.map((f) => `${f.text}: ${f.problem}`);
    const classes = new Set(valid.map((v) => coverageKey(v, v.key)));
    if (classes.size >= k || failed.length === 0 || steps >= o.repairBudget) break;
    steps++;
    reply = await chat.ask('llm', 'repair', repairPrompt(spec, properties, scenario, failed));
  }
  // First input of each coverage class, in generation order, at most k.
  const kept: Kept[] = [];
  const taken = new Set<string>();
  for (const v of valid) {
    const c = coverageKey(v, v.key);
    if (taken.has(c)) continue;
    taken.add(c);
    kept.push(v);
    if (kept.length === k) break;
  }
  return {
    reviewed: {
      ...scenario,
      status: kept.length > 0 ? 'judged' : 'skipped',
      steps,
      generated,
      valid: validCount,
      lastErrors: kept.length > 0 ? [] : lastErrors.length > 0 ? lastErrors : ['no input ran to a value'],
    },
    kept,
    ran,
  };
};

/** Asks the judge about one triple; an answer without a verdict line is re-asked once, then shown as UNPARSEABLE. */
const judgeOne = async (
  chat: Conversation,
  spec: SpecView,
  k: Kept,
): Promise<{ verdict: JudgeVerdict; reason: string }> => {
  const messages = judgePrompt(spec, k.input, showOutcome(k.outcome, spec.syntax));
  const first = await chat.ask('judge', 'judge', messages);
  const parsed = parseVerdict(first);
  if (parsed) return parsed;
  const second = await chat.ask(
    'judge',
    'judge',
    reaskMessages(messages, first, 'verdict', 'no verdict line'),
  );
  return (
    parseVerdict(second) ?? {
      verdict: 'UNPARSEABLE',
      reason: second.trim() || first.trim() || '(empty answer)',
    }
  );
};

/** Scenarios (re-asked once when the reply does not parse) and properties, concurrently. */
const extract = async (
  chat: Conversation,
  spec: SpecView,
  o: ResolvedReviewOptions,
): Promise<{ scenarios: Scenario[] | string; properties: string }> => {
  const scenarios = (async () => {
    const messages = scenariosPrompt(spec, o.scenarios);
    const first = await chat.ask('llm', 'scenarios', messages);
    const parsed = parseScenarios(first, o.scenarios);
    if ('scenarios' in parsed) return parsed.scenarios;
    const second = await chat.ask('llm', 'scenarios', reaskMessages(messages, first, 'json', parsed.problem));
    const again = parseScenarios(second, o.scenarios);
    return 'scenarios' in again ? again.scenarios : again.problem;
  })();
  const properties = chat.ask('llm', 'properties', propertiesPrompt(spec)).then(parseProperties);
  return { scenarios: await scenarios, properties: await properties };
};

/**
 * Grounded review of one candidate (TRAILS): scenarios and properties from the specification,
 * inputs per scenario repaired within the budget, coverage dedup, the candidate run through the
 * sandboxed runners, and a judge that sees the specification, each input and each output but
 * never the code. Accepts when the share of CORRECT verdicts reaches the threshold.
 * @internal — the public entry is `review` in index.ts, which adapts the LLM client.
 */
export const reviewWith = async (
  task: Task,
  candidate: Candidate,
  o: ResolvedReviewOptions,
  where: string,
): Promise<Review> => (await reviewTraced(task, candidate, o, where)).review;

/** A review plus the judged inputs and outcomes, for pool reviews to run members on. @internal */
export const reviewTraced = async (
  task: Task,
  candidate: Candidate,
  o: ResolvedReviewOptions,
  where: string,
  extra: ExtraScenario | null = null,
): Promise<{ review: Review; judged: ReadonlyArray<{ args: Args; output: string }> }> => {
  const sink: { judged: ReadonlyArray<{ args: Args; output: string }> } = { judged: [] };
  const review = await reviewInner(task, candidate, o, where, sink, extra);
  return { review, judged: sink.judged };
};

/**
 * A scenario whose inputs come from outside the generator: S*, the inputs on which a pool's
 * samples disagree. Every input is judged, whatever the candidate did there (the pool vouches
 * for it: other samples returned on it).
 */
export interface ExtraScenario {
  readonly scenario: Scenario;
  readonly inputs: readonly Args[];
}

const reviewInner = async (
  task: Task,
  candidate: Candidate,
  o: ResolvedReviewOptions,
  where: string,
  sink: { judged: ReadonlyArray<{ args: Args; output: string }> },
  extra: ExtraScenario | null,
): Promise<Review> => {
  const started = performance.now();
  const spec = specOf(task, candidate, where);
  const chat = new Conversation(o);
  const executor = executorFor(task, candidate, o);
  const confirm = confirmerFor(task, candidate, o, where);
  const scenarios: ReviewedScenario[] = [];
  let properties = '';
  const judged: Array<{ scenario: number; kept: Kept }> = [];
  const results = new Map<Kept, { verdict: JudgeVerdict; reason: string }>();
  const finish = (
    verdict: Review['verdict'],
    reason: ReviewReason,
    problem: string | null = null,
  ): Review => {
    const byScenario = scenarios.map((s, i) => ({
      ...s,
      inputs: judged
        .filter((j) => j.scenario === i)
        .map(({ kept }): ReviewedInput => {
          const r = results.get(kept);
          return {
            input: kept.input,
            output: showOutcome(kept.outcome, spec.syntax),
            verdict: r?.verdict ?? 'NOT_JUDGED',
            reason: r?.reason ?? '',
            lines: kept.lines ? [...kept.lines] : null,
            ...(kept.confirmedBy ? { confirmedBy: kept.confirmedBy } : {}),
          };
        }),
    }));
    sink.judged = judged.map(({ kept }) => ({
      args: kept.args,
      output: showOutcome(kept.outcome, spec.syntax),
    }));
    const all = byScenario.flatMap((s) => s.inputs);
    const counts = {
      correct: all.filter((x) => x.verdict === 'CORRECT').length,
      incorrect: all.filter((x) => x.verdict === 'INCORRECT').length,
      unparseable: all.filter((x) => x.verdict === 'UNPARSEABLE').length,
    };
    const parseable = counts.correct + counts.incorrect;
    return {
      verdict,
      reason,
      problem,
      score: results.size > 0 && parseable > 0 ? counts.correct / parseable : null,
      threshold: o.threshold,
      calibration: o.calibration,
      counts,
      scenarios: byScenario,
      properties,
      candidate: { label: candidate.label, id: candidate.id },
      seed: o.seed,
      dedup: executor.dedup,
      extensions: [
        ...(o.judgeRejections ? ['judgeRejections'] : []),
        ...(o.confirmInputsWith ? [`confirmInputsWith:${o.confirmInputsWith}`] : []),
        ...(extra ? ['disagreements'] : []),
      ],
      llm: tallyCalls(chat.calls, o.llm.model, o.judge.model),
      durationMs: performance.now() - started,
    };
  };
  try {
    const extracted = await extract(chat, spec, o);
    properties = extracted.properties;
    if (typeof extracted.scenarios === 'string') {
      return finish(
        'inconclusive',
        'no-scenarios',
        `the scenario reply, asked twice, could not be read: ${extracted.scenarios}`,
      );
    }
    const list = extracted.scenarios;
    const seen = new Set<string>();
    let emptyRun = 0;
    let ran = 0;
    // No valid input: the candidate's fault only if it ran on some. If the generator wrote nothing
    // that parses, the candidate never ran, and nothing is known about it.
    const noValidInputs = () =>
      ran > 0
        ? finish('reject', 'no-valid-inputs')
        : finish(
            'inconclusive',
            'no-parseable-inputs',
            `the generator wrote no input that parses as arguments of ${spec.entry} in ${scenarios.filter((x) => x.status === 'skipped').length} scenarios, so the candidate never ran`,
          );
    for (let i = 0; i < list.length; i++) {
      const s = await runScenario(chat, spec, properties, list[i] as Scenario, executor, seen, o, confirm);
      ran += s.ran;
      scenarios.push({ ...s.reviewed, inputs: [] });
      for (const kept of s.kept) judged.push({ scenario: i, kept });
      if (s.kept.length > 0) {
        emptyRun = 0;
        continue;
      }
      emptyRun++;
      if (emptyRun >= o.earlyStop) {
        for (const rest of list.slice(i + 1))
          scenarios.push({
            ...rest,
            status: 'not-reached',
            steps: 0,
            generated: 0,
            valid: 0,
            inputs: [],
            lastErrors: [],
          });
        return noValidInputs();
      }
    }
    if (extra && extra.inputs.length > 0) {
      const fresh = extra.inputs.filter((args) => !seen.has(JSON.stringify(encode(args))));
      const results = await executor.exec(fresh);
      const at = scenarios.length;
      fresh.forEach((args, j) => {
        const r = results[j] as { outcome: Outcome; lines: readonly number[] | null };
        seen.add(JSON.stringify(encode(args)));
        judged.push({
          scenario: at,
          kept: {
            args,
            input: showInput(args, spec.syntax),
            outcome: r.outcome,
            lines: r.lines,
            ...(isValid(r.outcome, o.judgeRejections) ? {} : { confirmedBy: 'pool' as const }),
          },
        });
      });
      scenarios.push({
        ...extra.scenario,
        status: fresh.length > 0 ? 'judged' : 'skipped',
        steps: 0,
        generated: 0,
        valid: fresh.length,
        inputs: [],
        lastErrors:
          fresh.length > 0 ? [] : ['every disagreement input was already judged in another scenario'],
      });
    }
    if (judged.length === 0) return noValidInputs();
    const verdicts = await Promise.allSettled(judged.map((j) => judgeOne(chat, spec, j.kept)));
    verdicts.forEach((v, i) => {
      if (v.status === 'fulfilled') results.set((judged[i] as { kept: Kept }).kept, v.value);
    });
    const failure = verdicts.find((v): v is PromiseRejectedResult => v.status === 'rejected');
    if (failure) throw failure.reason;
    const r = finish('reject', 'score');
    if (r.counts.correct + r.counts.incorrect === 0)
      return { ...r, verdict: 'inconclusive', reason: 'no-parseable-verdicts' };
    return { ...r, verdict: (r.score as number) >= o.threshold ? 'accept' : 'reject' };
  } catch (error) {
    if (error instanceof CallBudgetSpent) return finish('inconclusive', 'budget');
    throw error;
  }
};
