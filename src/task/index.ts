/**
 * Tasks: what the candidates are supposed to compute. A task names the function, how to call
 * it (entry point, signature, inputs), how to compare results (equality mode) and, optionally,
 * a trusted reference; every check takes one.
 * @packageDocumentation
 */
import { type Candidate, fromFunctions, isCandidate } from '../candidates/index.ts';
import { type Args, type Gen, isGen } from '../contract/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys, optionError } from '../errors/index.ts';
import { comparator, type Equality } from '../values/index.ts';

/** What {@link defineTask} accepts. @public */
export interface TaskSpec<A extends Args = Args> {
  /** Short unique name, used in reports and records. */
  name: string;
  /** The natural-language specification given to the model. */
  description?: string;
  /** The signature, TypeScript (`(xs: number[]) => number`) or Python (`(xs: List[int]) -> int`) style. */
  signature?: string;
  /** Name of the function candidates define; defaults to `name` when that is an identifier. */
  entry?: string;
  /** The inputs to probe candidates with: a {@link Gen}, or a fixed list of argument tuples. */
  inputs?: Gen<A> | readonly A[];
  /** A trusted reference: a function, or a candidate (e.g. Python ground truth from `fromSources`). */
  reference?: ((...args: never[]) => unknown) | Candidate;
  /**
   * How outputs are compared.
   * @defaultValue `'python'` when every candidate is Python, `'mixed'` when the candidates and the reference are of several languages, `'strict'` otherwise
   */
  equality?: Equality;
  /**
   * Error class names that mean "this input is invalid" (the `invalid` outcome).
   * @defaultValue `['RangeError']` for JavaScript, `['ValueError']` for Python
   */
  invalidInput?: readonly string[];
  /**
   * Per-call time limit in milliseconds.
   * @defaultValue 1000
   */
  timeoutMs?: number;
}

/** A validated, frozen task. @public */
export interface Task<A extends Args = Args> {
  readonly name: string;
  readonly description: string | undefined;
  readonly signature: string | undefined;
  readonly entry: string | undefined;
  readonly inputs: Gen<A> | readonly A[] | undefined;
  readonly reference: Candidate | undefined;
  readonly equality: Equality | undefined;
  readonly invalidInput: readonly string[] | undefined;
  readonly timeoutMs: number;
}

const TASK_BRAND = Symbol.for('crosscheck.task');
const IDENT = /^[A-Za-z_$][\w$]*$/;

/** The fields of a {@link TaskSpec}, checked against the interface at compile time. */
const FIELDS = knownKeys<TaskSpec>({
  name: true,
  description: true,
  signature: true,
  entry: true,
  inputs: true,
  reference: true,
  equality: true,
  invalidInput: true,
  timeoutMs: true,
});

const fail = (field: string, rule: string, got: unknown, fix?: string): never => {
  throw optionError({ code: 'INVALID_TASK', where: 'defineTask', field, rule, got, fix });
};

/** A value as code for a fix hint (`3`, `"abc"`), falling back to its description. */
const asLiteral = (value: unknown): string => {
  try {
    const text = JSON.stringify(value);
    if (typeof text === 'string' && text.length <= 60) return text;
  } catch {
    // A cycle or a bigint: describe it instead.
  }
  return describeValue(value);
};

/**
 * Validates and freezes a task. Throws a {@link CrosscheckError} (`INVALID_TASK`) naming the bad
 * field, the rule and the fix.
 * @public
 */
export const defineTask = <A extends Args = Args>(spec: TaskSpec<A>): Task<A> => {
  if (typeof spec !== 'object' || spec === null) fail('spec', 'must be an object', spec);
  const { name, description, signature, entry, inputs, reference, equality, invalidInput, timeoutMs } = spec;
  checkKeys({ where: 'defineTask', code: 'INVALID_TASK', noun: 'field' }, spec, FIELDS);
  if (typeof name !== 'string' || name.trim() === '') {
    fail(
      'name',
      'must be a non-empty string',
      name,
      "Give the task a short name, e.g. defineTask({ name: 'sortAsc' }).",
    );
  }
  if (description !== undefined && typeof description !== 'string')
    fail('description', 'must be a string', description);
  if (signature !== undefined && typeof signature !== 'string')
    fail('signature', 'must be a string', signature);
  if (entry !== undefined && (typeof entry !== 'string' || !IDENT.test(entry))) {
    fail(
      'entry',
      'must be a function name (an identifier)',
      entry,
      "Name the function the candidates define, e.g. entry: 'sortAsc'.",
    );
  }
  if (inputs !== undefined && !isGen(inputs)) {
    if (!Array.isArray(inputs)) {
      fail(
        'inputs',
        'must be a Gen (from gen.*) or an array of argument tuples',
        inputs,
        'Wrap single arguments: [[1], [2]].',
      );
    }
    (inputs as unknown[]).forEach((args, i) => {
      if (!Array.isArray(args)) {
        fail(
          `inputs[${i}]`,
          'must be an argument tuple (an array of positional arguments)',
          args,
          `Write [${asLiteral(args)}] for a one-argument call.`,
        );
      }
    });
  }
  let ref: Candidate | undefined;
  if (reference !== undefined) {
    if (typeof reference === 'function') ref = fromFunctions({ reference })[0];
    else if (isCandidate(reference)) ref = reference;
    else
      fail(
        'reference',
        'must be a function or a candidate',
        reference,
        'For source code, pass a candidate: candidates.fromSources([code], { language, entry })[0].',
      );
  }
  if (equality !== undefined) {
    try {
      comparator(equality);
    } catch {
      fail(
        'equality',
        "must be 'strict', 'python', 'mixed', 'difftrust' or a function (a, b) => boolean",
        equality,
      );
    }
  }
  if (
    invalidInput !== undefined &&
    (!Array.isArray(invalidInput) || invalidInput.some((x) => typeof x !== 'string'))
  ) {
    fail(
      'invalidInput',
      'must be an array of error class names',
      invalidInput,
      "For example ['ValueError', 'TypeError'].",
    );
  }
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
  ) {
    fail('timeoutMs', 'must be a positive number of milliseconds', timeoutMs, 'For example timeoutMs: 2000.');
  }
  const task: Task<A> = {
    name,
    description,
    signature,
    entry: entry ?? (IDENT.test(name) ? name : undefined),
    inputs: Array.isArray(inputs) ? Object.freeze([...(inputs as A[])]) : inputs,
    reference: ref,
    equality,
    invalidInput: invalidInput ? Object.freeze([...invalidInput]) : undefined,
    timeoutMs: timeoutMs ?? 1000,
  };
  Object.defineProperty(task, TASK_BRAND, { value: true });
  return Object.freeze(task);
};

/** True for a task made by {@link defineTask}. @public */
export const isTask = (x: unknown): x is Task =>
  typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[TASK_BRAND] === true;
