import { CrosscheckError, type CrosscheckErrorCode, describeValue } from '../src/errors/index.ts';
import type { WitnessRecord } from '../src/report/index.ts';
import { neutralizeDeep } from '../src/values/index.ts';
import type { MatcherContext } from './context.ts';

/** The parts of a failure message; {@link formatMessage} lays them out the same way for every matcher. */
export interface MessageParts {
  /** `toBeCoherentAcross`. */
  readonly matcher: string;
  /** Names of the received value and the expected arguments in the hint line. */
  readonly receivedName: string;
  readonly expectedName: string;
  readonly secondArgument?: string;
  /** One sentence saying what happened. */
  readonly summary: string;
  readonly expected: string;
  readonly received: string;
  /** More labelled lines (Error, Classes, Unknown), printed as they come. */
  readonly details?: ReadonlyArray<readonly [label: string, value: string]>;
  readonly witness?: WitnessRecord | null;
  /**
   * The replay recipe: the seed, the arguments before the options as the hint line names them
   * (`candidates`, `0.1, candidates`) and the options object that reproduces the run.
   */
  readonly replay?: {
    readonly seed: number;
    readonly args: string;
    readonly option: string;
    /** Options that still apply when the witness is the only input (e.g. `maxError: 0`). */
    readonly witnessOption?: string;
  } | null;
  readonly hints?: readonly string[];
}

/** Labels pad to the longest one in the message plus a space, so values line up. */
const labeller =
  (width: number) =>
  (name: string): string =>
    `${name}:`.padEnd(width);

const witnessLines = (w: WitnessRecord, label: (name: string) => string): string[] => {
  const shrunk =
    w.shrinkSteps === null
      ? ''
      : w.input === w.original
        ? ` (not shrunk further in ${w.shrinkSteps} steps)`
        : ` (shrunk from ${w.original} in ${w.shrinkSteps} steps)`;
  const outputs = w.outputs.map((o) => `  ${o.labels.join(', ')} → ${o.outcome}`);
  const reference = w.reference === null ? [] : [`  reference → ${w.reference}`];
  return [`${label('Witness')}${w.input}${shrunk}`, ...outputs, ...reference];
};

/**
 * The one message layout of crosscheck matchers: the hint line, a summary, labelled
 * Expected/Received blocks, details, the witness with each class's output, the replay recipe
 * (seed, witness, the reproducing option) and numbered hints.
 */
export const formatMessage = (ctx: MatcherContext, raw: MessageParts): string => {
  // Candidate text (outputs, exception messages, labels) is shown, never acted on by the
  // terminal: the matcher colours are the only control sequences in a failure message.
  const parts = neutralizeDeep(raw, { newlines: true });
  const names = ['Expected', 'Received', 'Witness', 'Replay', ...(parts.details ?? []).map(([name]) => name)];
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const label = labeller(width);
  const hint = ctx.utils.matcherHint(parts.matcher, parts.receivedName, parts.expectedName, {
    isNot: ctx.isNot,
    promise: ctx.promise,
    ...(parts.secondArgument ? { secondArgument: parts.secondArgument } : {}),
  });
  const blocks: string[][] = [
    [hint],
    [parts.summary],
    [
      `${label('Expected')}${ctx.utils.EXPECTED_COLOR(parts.expected)}`,
      `${label('Received')}${ctx.utils.RECEIVED_COLOR(parts.received)}`,
      ...(parts.details ?? []).map(([name, value]) => `${label(name)}${value}`),
    ],
  ];
  if (parts.witness) blocks.push(witnessLines(parts.witness, label));
  if (parts.replay) {
    // Statements the user can paste into the test (named as in the hint line above): the same
    // run by its seed, and the witness alone as the only input.
    const { args, option, witnessOption } = parts.replay;
    const call = (options: string) =>
      `await expect(${parts.receivedName})${ctx.isNot ? '.not' : ''}.${parts.matcher}(${args}, ${options});`;
    const lines = [`${label('Replay')}${call(option)}`];
    if (parts.witness)
      lines.push(
        `${' '.repeat(width)}${call(`{ inputs: [${parts.witness.input}]${witnessOption ? `, ${witnessOption}` : ''} }`)}  // the witness alone`,
      );
    blocks.push(lines);
  }
  if (parts.hints?.length) blocks.push(parts.hints.map((h, i) => `Hint ${i + 1}: ${h}`));
  return blocks.map((b) => b.join('\n')).join('\n\n');
};

/** A number for messages: 3 significant digits, no float noise. */
export const num = (x: number): string => String(Number(x.toPrecision(3)));

/** A share as a percentage for messages. */
export const pct = (x: number): string => `${num(x * 100)}%`;

/**
 * Misuse of a matcher (not a task, bad options) throws; failing returns. The stack starts at the
 * user's `expect` call, not inside crosscheck.
 */
export const misuse = (
  code: CrosscheckErrorCode,
  matcher: string,
  rule: string,
  got: unknown,
  fix: string,
  // biome-ignore lint/complexity/noBannedTypes: any function can anchor a stack trace
  anchor: Function,
): never => {
  const error = new CrosscheckError(code, `${matcher}: ${rule}, got ${describeValue(got)}. ${fix}`, {
    where: matcher,
  });
  Error.captureStackTrace?.(error, anchor);
  throw error;
};

/** What the `unknown` policy did with timeouts and crashes, for the Unknown line of a message. */
export const unknownText = (
  cells: number,
  policy: string,
  perCandidate?: ReadonlyArray<readonly [string, number]>,
): string => {
  const how =
    policy === 'exclude'
      ? "excluded (unknown: 'exclude')"
      : policy === 'inconclusive'
        ? "the verdict is inconclusive (unknown: 'inconclusive')"
        : "counted as disagreement, and as wrong where the reference returns (unknown: 'disagree')";
  const who = (perCandidate ?? []).filter(([, k]) => k > 0).map(([label, k]) => `${label} ${k}`);
  return `${cells} timeouts or crashes${who.length > 0 ? ` (${who.join(', ')})` : ''}, ${how}`;
};
