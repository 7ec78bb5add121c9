/**
 * Witnesses from a model (design §2, §3.6): the LLM decisions of the authors' pipeline (the
 * return value's name, which argument to invert, whether fibers are tractable), the transformed
 * statement, and programs for it, through the LLM layer's record/replay cache. Every decision is
 * a field of a {@link TransformPlan}; pinned fields are not asked, so a stored plan replays with
 * no decision prompt. The prompts state the facts of the authors' prompts in our own words.
 */
import { type Candidate, extractCode, fromSources } from '../candidates/index.ts';
import { CrosscheckError, checkKeys, knownKeys } from '../errors/index.ts';
import type { ChatMessage, Llm } from '../llm/index.ts';
import type { Task } from '../task/index.ts';

/** A transformed problem: what the witness programs are asked to solve. @public */
export interface TransformedProblem {
  readonly role:
    | 'inverse'
    | 'set-valued-inverse'
    | 'enumeration'
    | 'pointwise'
    | 'length-removed'
    | 'split'
    | 'union-none'
    | 'union-some';
  readonly signature: string;
  readonly entry: string;
  readonly description: string;
  readonly language: 'python';
}

/** Every decision the sampler made, storable and pinnable per task. @public */
export interface TransformPlan {
  readonly transformation: SamplerTransformation;
  /** STREAM: the forward maps a list element-wise; the inverse is then of the pointwise problem (design §1.4). */
  readonly stream: boolean;
  /** STREAM: the pointwise problem τ°(d), `<entry>_pointwise(element: T) -> R`; null otherwise. */
  readonly pointwise: TransformedProblem | null;
  /** The int parameter `length` is the length of `of` and is dropped (design §5.2); null otherwise. */
  readonly removeLength: { readonly length: string; readonly of: string } | null;
  /** With `removeLength`: the problem without the length parameter, `<entry>_nolen(…)`; `invert` indexes its parameters. */
  readonly reduced: TransformedProblem | null;
  /**
   * Union decomposition of the set-valued inverse for a `"NO" | ("YES", t)` output (design §5.2; the
   * authors switch it on per task, so it is only ever pinned): witnesses compose `none` and `some` on the host.
   */
  readonly union: {
    readonly answerName: string;
    readonly none: TransformedProblem;
    readonly some: TransformedProblem;
  } | null;
  /** SPLIT-SUFFIX (the authors' default for a one-parameter list/str task): x = x_prefix + x_suffix, suffix of length 1, inverted w.r.t. x_suffix; null otherwise. */
  readonly split: TransformedProblem | null;
  /** Index and name of the inverted parameter. */
  readonly invert: number;
  readonly invertName: string;
  readonly returnName: string;
  /** FWD-SINV, ENUM-SINV: fibers finite and small (exhaustive lists) or not (`(is_exhaustive, values)`); null for FWD-INV. */
  readonly exhaustive: boolean | null;
  /** The problem of the witnesses: the inverse or the set-valued inverse. */
  readonly problem: TransformedProblem;
  /** ENUM-SINV: the answer enumeration d^< (`<entry>_enum`), whose programs are the enumerators; null otherwise. */
  readonly enumeration: TransformedProblem | null;
}

/** The transformations the sampler plans (ENUM-SINV's second stage is FWD-ENUM against the same enumerators). @public */
export type SamplerTransformation = 'fwd-inv' | 'fwd-sinv' | 'enum-sinv';

const SAMPLER_KINDS: readonly string[] = ['fwd-inv', 'fwd-sinv', 'enum-sinv'];

/** Fields of a plan to fix instead of asking the model. @public */
export type PlanPin = Partial<Pick<TransformPlan, 'returnName' | 'exhaustive'>> & {
  readonly invert?: number | string;
  readonly description?: string;
  /** Whether the problem is stream processing (only asked for a `(xs: list[T]) -> list[R]` signature). */
  readonly stream?: boolean;
  /** Which int parameter is the length of which list/str parameter; null: none (asked only when both kinds occur). */
  readonly removeLength?: { readonly length: string; readonly of: string } | null;
  /** With `removeLength`: the statement of the problem without it. */
  readonly reducedDescription?: string;
  /** Split a single list/str parameter into prefix + suffix (default: yes for a one-parameter list/str task that is not stream processing). */
  readonly split?: boolean;
  /** With `split`: the statement of the split problem. */
  readonly splitDescription?: string;
  /** Decompose the set-valued inverse of a `Union[str, tuple[str, T]]` output into its "NO" and ("YES", t) parts (never asked). */
  readonly union?: boolean;
  /** With `union`: the name of t. @defaultValue 'answer' */
  readonly unionAnswerName?: string;
  /** With `union`: the statements of the "NO" and the ("YES", t) parts. */
  readonly unionNoneDescription?: string;
  readonly unionSomeDescription?: string;
  /** STREAM: the pointwise problem's statement. */
  readonly pointwiseDescription?: string;
  /** ENUM-SINV: the answer enumeration's statement. */
  readonly enumerationDescription?: string;
};

/** Samples plans and witness programs. @public */
export interface WitnessSampler {
  plan(task: Task, transformation: SamplerTransformation, pin?: PlanPin): Promise<TransformPlan>;
  /** Programs for `problem` (default the plan's witness problem; pass `plan.enumeration` for enumerators). */
  programs(plan: TransformPlan, n: number, problem?: TransformedProblem): Promise<Candidate[]>;
  /** Tokens spent (or replayed) since the sampler was made. */
  tokens(): { prompt: number; completion: number };
}

interface Param {
  readonly name: string;
  readonly type: string;
}

/** Parameters and return type of a Python-style signature `(a: int, b: int) -> int`. @internal */
export const parseSignature = (signature: string): { params: Param[]; returns: string } | null => {
  const arrow = signature.lastIndexOf('->');
  const open = signature.indexOf('(');
  const close = arrow >= 0 ? signature.lastIndexOf(')', arrow) : signature.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const body = signature.slice(open + 1, close);
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of body) {
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) parts.push(cur);
  const params = parts.map((p) => {
    const [name, ...type] = p.split(':');
    return { name: (name ?? '').trim(), type: type.join(':').trim() || 'object' };
  });
  return { params, returns: arrow >= 0 ? signature.slice(arrow + 2).trim() : 'object' };
};

/**
 * The transformed signature, derived mechanically: `def plus_inv_a(sum_of_two_numbers: int, b: int) -> int`,
 * `…_sinv_…(…) -> list[T]` or `-> tuple[bool, list[T]]` when fibers are not tractable.
 * @public
 */
export const transformedSignature = (
  entry: string,
  signature: string,
  kind: 'fwd-inv' | 'fwd-sinv' | 'enum-sinv',
  invert: number,
  returnName: string,
  exhaustive: boolean | null,
): { entry: string; signature: string } => {
  const sig = parseSignature(signature);
  if (!sig?.params[invert]) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `triangulation sampler: cannot derive the ${kind} signature from ${JSON.stringify(signature)}; give the task a Python signature like (a: int, b: int) -> int.`,
    );
  }
  const k = sig.params[invert] as Param;
  const others = sig.params.filter((_, i) => i !== invert);
  const name = `${entry}_${kind === 'fwd-inv' ? 'inv' : 'sinv'}_${k.name}`;
  const ret =
    kind === 'fwd-inv' ? k.type : exhaustive === false ? `tuple[bool, list[${k.type}]]` : `list[${k.type}]`;
  const params = [`${returnName}: ${sig.returns}`, ...others.map((p) => `${p.name}: ${p.type}`)].join(', ');
  return { entry: name, signature: `def ${name}(${params}) -> ${ret}` };
};

/**
 * The answer enumeration's signature: the forward parameters, a list of the forward return type,
 * `def smaller_enum(i: int) -> list[int]`.
 * @public
 */
export const enumerationSignature = (
  entry: string,
  signature: string,
): { entry: string; signature: string } => {
  const sig = parseSignature(signature);
  if (!sig) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `triangulation sampler: cannot derive the enumeration signature from ${JSON.stringify(signature)}; give the task a Python signature like (i: int) -> int.`,
    );
  }
  const name = `${entry}_enum`;
  const params = sig.params.map((p) => `${p.name}: ${p.type}`).join(', ');
  return { entry: name, signature: `def ${name}(${params}) -> list[${sig.returns}]` };
};

const isInt = (t: string) => t.trim() === 'int';
const isSeq = (t: string) => /^(?:str|list|List)\b/.test(t.trim());

/** Element types when the signature maps one list parameter to a list, else null. */
const streamElement = (sig: {
  params: readonly Param[];
  returns: string;
}): { input: string; output: string } | null => {
  const list = (t: string) => /^(?:list|List)\[(.*)\]$/.exec(t.trim())?.[1]?.trim() ?? null;
  if (sig.params.length !== 1) return null;
  const input = list((sig.params[0] as Param).type);
  const output = list(sig.returns);
  return input && output ? { input, output } : null;
};

const ANSWER = /<answer>([\s\S]*?)<\/answer>/;

const user = (content: string): ChatMessage[] => [{ role: 'user', content }];

/** The decision and statement prompts, in our words (facts from the authors' prompts, design §2.2). @internal */
export const PROMPTS = {
  returnName: (sig: string, description: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nPick a descriptive Python snake_case name for the value this function returns. Reply with the name alone inside <answer></answer>.`,
    ),
  invert: (sig: string, description: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nWe will swap one input parameter for the function's output to get an inverse problem. Pick the single parameter whose inverse problem is the most natural and well-posed; skip parameters whose values follow readily from the other inputs. Reply with the parameter name alone inside <answer></answer>.`,
    ),
  tractable: (sig: string, description: string, param: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nFix the output and every input except ${param}. Is the set of values of ${param} that give this output always finite and small enough to list by a program? Reply <answer>Yes</answer> or <answer>No</answer>.`,
    ),
  statement: (
    sig: string,
    description: string,
    target: string,
    kind: 'fwd-inv' | 'fwd-sinv' | 'enum-sinv',
    param: string,
    ret: string,
    exhaustive: boolean | null,
  ) => {
    const task =
      kind === 'fwd-inv'
        ? `It must return a value of ${param} for which the original function, called with that value and the other parameters unchanged, returns ${ret}. When several values qualify, any of them is a correct answer.`
        : exhaustive === false
          ? `It must return a pair (is_exhaustive, values): values lists values of ${param} for which the original function, called with that value and the other parameters unchanged, returns ${ret}. When the full set cannot be listed, return a representative part of it and set is_exhaustive to False; otherwise list every such value and set it to True.`
          : `It must return a list of every value of ${param} for which the original function, called with that value and the other parameters unchanged, returns ${ret}; the list must miss none of them, and it is empty when there are none.`;
    return user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nRewrite the problem so that it asks for the function ${target} instead. ${task}\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    );
  },
  enumeration: (sig: string, description: string, target: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nRewrite the problem so that it asks for the function ${target} instead. It must return every output that the problem accepts as correct for the given inputs, each once: list them all, and do not narrow the problem by an interpretation of your own where it allows several outputs. The returned values must have exactly the types of the signature.\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    ),
  stream: (sig: string, description: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nDoes this function apply one and the same operation to each element of its input list on its own, so that each output element depends only on the input element at the same position? Reply <answer>Yes</answer> or <answer>No</answer>.`,
    ),
  pointwise: (sig: string, description: string, target: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nThe function treats each list element on its own. Rewrite the problem so that it asks for the function ${target} instead, which gets one element and returns what the original function puts at that element's position.\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original that applies to a single element.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    ),
  length: (sig: string, description: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nIs one of its int parameters always the length of one of its list or string parameters? If so, reply with both names as (length_parameter, list_parameter) inside <answer></answer>; if not, reply <answer>None</answer>.`,
    ),
  removeLength: (sig: string, description: string, target: string, length: string, of: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nThe parameter ${length} is always the length of ${of}. Rewrite the problem so that it asks for the function ${target} instead, without the parameter ${length}: wherever the problem uses ${length}, use the length of ${of}.\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    ),
  split: (sig: string, description: string, target: string, param: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nRewrite the problem so that it asks for the function ${target} instead, where ${param} is given in two parts and ${param} = ${param}_prefix + ${param}_suffix. When the whole ${param} is empty, both parts are empty. State clearly which constraints apply to ${param}_suffix.\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    ),
  unionNone: (sig: string, description: string, target: string, param: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nIts output is either "NO" or ("YES", answer). Rewrite the problem so that it asks for the function ${target} instead. It must return a list of values of ${param} for which the original function, called with that value and the other parameters unchanged, returns "NO": every such value within a reasonable bound, and the statement must state that bound relative to the inputs.\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    ),
  unionSome: (sig: string, description: string, target: string, param: string, answer: string) =>
    user(
      `A programming problem asks for the function ${sig}.\n\n${description}\n\nIts output is either "NO" or ("YES", answer). Rewrite the problem so that it asks for the function ${target} instead. It must return a list of every value of ${param} for which the original function, called with that value and the other parameters unchanged, returns ("YES", ${answer}); the list must miss none of them, and it is empty when there are none.\nRules:\n0. Change the original problem as little as possible.\n1. Keep every constraint of the original.\n2. The new problem must stand on its own and never mention the original function.\n3. Leave out all examples.\nReply with the new problem statement inside <answer></answer>.`,
    ),
  code: (target: string, statement: string) =>
    user(
      `Write a Python function '${target}' that solves the problem below. Write only the function (and any imports or helpers it needs), print nothing, and put the code in one Markdown code block. For an invalid input whose handling the problem does not specify, raise ValueError('Invalid input').\n\n${statement}`,
    ),
} as const;

/** Options of {@link triangulationSampler}. @public */
export interface TriangulationSamplerOptions {
  /** @defaultValue 1.0 (the paper's temperature) */
  temperature?: number;
  /** Extra samples tried when replies hold no program. @defaultValue 3 */
  extraDraws?: number;
}

const SAMPLER_KEYS = knownKeys<TriangulationSamplerOptions>({ temperature: true, extraDraws: true });

/**
 * A witness sampler over an LLM client (FWD-INV, FWD-SINV, and ENUM-SINV with its FWD-ENUM stage). Decisions retry up to three fresh
 * samples when a reply has no answer; a program reply without code draws the next sample index.
 * @public
 */
export const triangulationSampler = (llm: Llm, o: TriangulationSamplerOptions = {}): WitnessSampler => {
  if (typeof o === 'object' && o !== null)
    checkKeys({ where: 'triangulationSampler(llm, options)' }, o, SAMPLER_KEYS);
  const sampling = { temperature: o.temperature ?? 1.0 };
  const start = llm.ledger.mark();
  const decide = async (messages: ChatMessage[], what: string): Promise<string> => {
    for (let sample = 0; sample < 3; sample++) {
      const c = await llm.chat(
        { messages, sampling, purpose: 'other', label: `triangulation: ${what}` },
        { sample },
      );
      const m = ANSWER.exec(c.text);
      if (m && (m[1] as string).trim() !== '') return (m[1] as string).trim();
    }
    throw new CrosscheckError(
      'INVALID_INPUT',
      `triangulation sampler: three replies to the ${what} prompt held no <answer>…</answer>; pin it in the plan instead.`,
    );
  };
  return {
    plan: async (task, kind, pin = {}) => {
      if (!SAMPLER_KINDS.includes(kind as string)) {
        throw new CrosscheckError(
          'INVALID_OPTION',
          `triangulation sampler: cannot plan ${JSON.stringify(kind)}; it plans 'fwd-inv', 'fwd-sinv' and 'enum-sinv' (whose second stage is FWD-ENUM). For other transformations pass \`witnesses\` you wrote.`,
        );
      }
      const sig0 = task.signature;
      const entry0 = task.entry ?? task.name;
      const description0 = task.description ?? '';
      if (!sig0) {
        throw new CrosscheckError(
          'INVALID_TASK',
          `triangulation sampler: task ${JSON.stringify(task.name)} has no signature; the transformed signature is derived from it.`,
        );
      }
      const parsed0 = parseSignature(sig0);
      if (!parsed0)
        throw new CrosscheckError(
          'INVALID_TASK',
          `triangulation sampler: cannot parse the signature ${JSON.stringify(sig0)}.`,
        );
      const full0 = `def ${entry0}${sig0.startsWith('(') ? sig0 : sig0.slice(sig0.indexOf('('))}`;
      // STREAM (design §3.6): asked only when one list parameter maps to a list, as the authors do.
      const element = streamElement(parsed0);
      if (pin.stream === true && !element) {
        throw new CrosscheckError(
          'INVALID_INPUT',
          `triangulation sampler: the plan pins \`stream: true\` but ${full0} does not map one list to a list; pin \`stream: false\` or give the task a signature like (xs: list[int]) -> list[int].`,
        );
      }
      const stream =
        element !== null &&
        (pin.stream ?? /^yes/i.test(await decide(PROMPTS.stream(full0, description0), 'stream processing')));
      if (stream && kind === 'enum-sinv') {
        throw new CrosscheckError(
          'INVALID_OPTION',
          `triangulation sampler: stream ∘ enum-sinv is not planned by the sampler; pin \`stream: false\`, use 'fwd-inv' or 'fwd-sinv', or pass \`enumerators\` and \`witnesses\` you wrote.`,
        );
      }
      let pointwise: TransformedProblem | null = null;
      if (stream && element) {
        const pw = `def ${entry0}_pointwise(element: ${element.input}) -> ${element.output}`;
        const text =
          pin.pointwiseDescription ??
          (await decide(PROMPTS.pointwise(full0, description0, pw), 'pointwise statement'));
        pointwise = {
          role: 'pointwise',
          signature: pw,
          entry: `${entry0}_pointwise`,
          description: text,
          language: 'python',
        };
      }
      // Length parameters (design §5.2): asked only when an int and a list/str parameter both occur.
      const hasPair = parsed0.params.some((p) => isInt(p.type)) && parsed0.params.some((p) => isSeq(p.type));
      let removeLength: { length: string; of: string } | null = null;
      if (pin.removeLength !== undefined) removeLength = pin.removeLength;
      else if (hasPair && !stream) {
        const a = await decide(PROMPTS.length(full0, description0), 'length parameter');
        const m = /^\(?\s*['"]?(\w+)['"]?\s*,\s*['"]?(\w+)['"]?\s*\)?$/.exec(a);
        removeLength = m ? { length: m[1] as string, of: m[2] as string } : null;
      }
      let reduced: TransformedProblem | null = null;
      if (removeLength) {
        const lp = parsed0.params.find((p) => p.name === removeLength?.length);
        const op = parsed0.params.find((p) => p.name === removeLength?.of);
        if (!lp || !op || !isInt(lp.type) || !isSeq(op.type) || lp === op) {
          throw new CrosscheckError(
            'INVALID_INPUT',
            `triangulation sampler: ${pin.removeLength ? 'the plan pins' : 'the model chose'} \`removeLength\` ${JSON.stringify(removeLength)}, but in ${full0} \`length\` must name an int parameter and \`of\` a list or str parameter; ${pin.removeLength ? 'fix the pin' : 'pin it'} (or pin \`removeLength: null\`).`,
          );
        }
        const rest = parsed0.params.filter((p) => p !== lp);
        const rsig = `def ${entry0}_nolen(${rest.map((p) => `${p.name}: ${p.type}`).join(', ')}) -> ${parsed0.returns}`;
        const text =
          pin.reducedDescription ??
          (await decide(
            PROMPTS.removeLength(full0, description0, rsig, removeLength.length, removeLength.of),
            'length removal statement',
          ));
        reduced = {
          role: 'length-removed',
          signature: rsig,
          entry: `${entry0}_nolen`,
          description: text,
          language: 'python',
        };
      }
      // SPLIT-SUFFIX: automatic for one list/str parameter (as the authors do), never asked.
      const only = parsed0.params.length === 1 ? (parsed0.params[0] as Param) : null;
      const splittable = only !== null && isSeq(only.type) && !stream;
      if (pin.split === true && !splittable) {
        throw new CrosscheckError(
          'INVALID_INPUT',
          `triangulation sampler: the plan pins \`split: true\` but ${full0} does not have one list or str parameter${stream ? ' outside a stream' : ''}; pin \`split: false\`.`,
        );
      }
      let split: TransformedProblem | null = null;
      if (splittable && pin.split !== false && only) {
        const ssig = `def ${entry0}_split(${only.name}_prefix: ${only.type}, ${only.name}_suffix: ${only.type}) -> ${parsed0.returns}`;
        const text =
          pin.splitDescription ??
          (await decide(PROMPTS.split(full0, description0, ssig, only.name), 'split statement'));
        split = {
          role: 'split',
          signature: ssig,
          entry: `${entry0}_split`,
          description: text,
          language: 'python',
        };
      }
      // Under STREAM, SPLIT or with the length removed every later decision is about the reduced problem.
      const work = pointwise ?? reduced ?? split;
      const entry = work ? work.entry : entry0;
      const sig = work ? work.signature.slice(work.signature.indexOf('(')) : sig0;
      const description = work ? work.description : description0;
      const full = work ? work.signature : full0;
      const names = (parseSignature(sig) ?? parsed0).params.map((p) => p.name);
      const returnName =
        pin.returnName ?? (await decide(PROMPTS.returnName(full, description), 'return name'));
      let invertName: string;
      if (pin.invert !== undefined)
        invertName = typeof pin.invert === 'number' ? (names[pin.invert] ?? '') : pin.invert;
      else if (split) invertName = names[1] as string;
      else if (names.length === 1) invertName = names[0] as string;
      else invertName = await decide(PROMPTS.invert(full, description), 'inverted parameter');
      const invert = names.indexOf(invertName);
      if (invert < 0) {
        throw new CrosscheckError(
          'INVALID_INPUT',
          pin.invert !== undefined
            ? `triangulation sampler: the plan pins \`invert\` to ${JSON.stringify(pin.invert)}, which names no parameter of ${full}; pin one of ${names.map((n, i) => `${JSON.stringify(n)} (${i})`).join(', ')}.`
            : `triangulation sampler: the model chose the inverted parameter ${JSON.stringify(invertName)}, which is not one of ${names.join(', ')}; pin \`invert\` in the plan.`,
        );
      }
      let union: TransformPlan['union'] = null;
      if (pin.union === true) {
        const parsedWork = parseSignature(sig) ?? parsed0;
        const t =
          /^(?:Union\[\s*str\s*,\s*tuple\[\s*str\s*,\s*(.+)\]\s*\]|str\s*\|\s*tuple\[\s*str\s*,\s*(.+)\])$/.exec(
            parsedWork.returns,
          );
        if (kind === 'fwd-inv' || !t) {
          throw new CrosscheckError(
            'INVALID_INPUT',
            kind === 'fwd-inv'
              ? "triangulation sampler: the plan pins `union: true`, which decomposes a set-valued inverse; use 'fwd-sinv' or 'enum-sinv', or pin `union: false`."
              : `triangulation sampler: the plan pins \`union: true\` but ${full} does not return Union[str, tuple[str, T]] ("NO" or ("YES", t)); pin \`union: false\`.`,
          );
        }
        const answerType = (t[1] ?? t[2] ?? 'object').trim();
        const answerName = pin.unionAnswerName ?? 'answer';
        const k = parsedWork.params[invert] as Param;
        const others = parsedWork.params.filter((_, i) => i !== invert).map((p) => `${p.name}: ${p.type}`);
        const base = `${entry}_sinv_${k.name}`;
        const noneSig = `def ${base}_no(${others.join(', ')}) -> list[${k.type}]`;
        const someSig = `def ${base}_yes(${[`${answerName}: ${answerType}`, ...others].join(', ')}) -> list[${k.type}]`;
        const noneText =
          pin.unionNoneDescription ??
          (await decide(PROMPTS.unionNone(full, description, noneSig, invertName), 'union "NO" statement'));
        const someText =
          pin.unionSomeDescription ??
          (await decide(
            PROMPTS.unionSome(full, description, someSig, invertName, answerName),
            'union "YES" statement',
          ));
        const problem = (signature: string, role: 'union-none' | 'union-some', text: string) => ({
          role,
          signature,
          entry: signature.slice(4, signature.indexOf('(')),
          description: text,
          language: 'python' as const,
        });
        union = {
          answerName,
          none: problem(noneSig, 'union-none', noneText),
          some: problem(someSig, 'union-some', someText),
        };
      }
      const exhaustive =
        kind === 'fwd-inv' || union
          ? null
          : (pin.exhaustive ??
            /^yes/i.test(await decide(PROMPTS.tractable(full, description, invertName), 'tractable fibers')));
      const target = transformedSignature(entry, sig, kind, invert, returnName, exhaustive);
      const statement =
        pin.description ??
        // Under the union decomposition no program solves the whole set-valued inverse: its parts do.
        (union
          ? `The union of ${union.none.entry} (for "NO") and ${union.some.entry} (for ("YES", ${union.answerName})), composed on the host.`
          : await decide(
              PROMPTS.statement(
                full,
                description,
                target.signature,
                kind,
                invertName,
                returnName,
                exhaustive,
              ),
              'statement',
            ));
      let enumeration: TransformedProblem | null = null;
      if (kind === 'enum-sinv') {
        // Enumerators solve the original problem: triangulate views them through the same adapters as the forward.
        const e = enumerationSignature(entry0, sig0);
        const text =
          pin.enumerationDescription ??
          (await decide(PROMPTS.enumeration(full0, description0, e.signature), 'enumeration statement'));
        enumeration = {
          role: 'enumeration',
          signature: e.signature,
          entry: e.entry,
          description: text,
          language: 'python',
        };
      }
      return {
        transformation: kind,
        stream,
        pointwise,
        removeLength,
        reduced,
        split,
        union,
        invert,
        invertName,
        returnName,
        exhaustive,
        problem: {
          role: kind === 'fwd-inv' ? 'inverse' : 'set-valued-inverse',
          signature: target.signature,
          entry: target.entry,
          description: statement,
          language: 'python',
        },
        enumeration,
      };
    },
    programs: async (plan, n, problem = plan.problem) => {
      const messages = PROMPTS.code(problem.signature, problem.description);
      const out: Candidate[] = [];
      const limit = n + (o.extraDraws ?? 3);
      for (let sample = 0; sample < limit && out.length < n; sample++) {
        const c = await llm.chat(
          {
            messages,
            sampling,
            purpose: 'codegen',
            label: problem.role === 'enumeration' ? 'triangulation: enumerator' : 'triangulation: witness',
          },
          { sample },
        );
        const code = extractCode(c.text, 'python', problem.entry);
        // A reply that defines no such function is skipped: the next sample index stands in.
        if (!new RegExp(`\\bdef\\s+${problem.entry}\\b`).test(code)) continue;
        out.push(
          fromSources(
            [
              {
                source: c.text,
                label: `${llm.model}:${problem.entry}#${sample}`,
                tags: { model: llm.model, sample },
              },
            ],
            {
              language: 'python',
              entry: problem.entry,
            },
          )[0] as Candidate,
        );
      }
      return out;
    },
    tokens: () => {
      const t = llm.ledger.totals(llm.ledger.since(start));
      return {
        prompt: t.live.prompt + t.replayed.prompt,
        completion: t.live.completion + t.replayed.completion,
      };
    },
  };
};
