import type { Candidate } from '../candidates/index.ts';
import type { Task } from '../task/index.ts';
import { tallyCalls } from './ledger.ts';
import type { ResolvedReviewOptions } from './options.ts';
import { parseVerdict } from './parse.ts';
import type { ReviewCall } from './port.ts';
import { reaskMessages, zeroShotPrompt } from './prompts.ts';
import { specOf } from './review.ts';
import type { ReviewLlmRecord } from './types.ts';

/** What the zero-shot baseline decided about one program. @public */
export interface ZeroShotReview {
  /** `accept` on CORRECT, `reject` on INCORRECT, `inconclusive` when no verdict line could be read twice. */
  readonly verdict: 'accept' | 'reject' | 'inconclusive';
  /** The model's reasoning (its whole last answer when no verdict could be read). */
  readonly reason: string;
  readonly candidate: { readonly label: string; readonly id: string };
  readonly seed: number;
  readonly llm: ReviewLlmRecord;
}

/** The code as the baseline shows it: the extracted source, or a trusted function's text. */
const codeOf = (c: Candidate): { code: string; language: string } => {
  if (c.kind === 'source') return { code: c.code, language: c.language };
  if (c.kind === 'function') return { code: String(c.fn), language: 'javascript' };
  return { code: `(a command: ${c.command.join(' ')})`, language: 'command' };
};

/**
 * The zero-shot chain-of-thought baseline of grounded review: one call that shows the model the
 * specification and the code and asks for a verdict (re-asked once when the answer has no verdict
 * line). Benchmarks compare it with `review`, which never shows the code.
 * @internal — the public entry is `reviewZeroShot` in index.ts.
 */
export const zeroShotWith = async (
  task: Task,
  candidate: Candidate,
  o: ResolvedReviewOptions,
  where: string,
): Promise<ZeroShotReview> => {
  const spec = specOf(task, candidate, where);
  const { code, language } = codeOf(candidate);
  const calls: ReviewCall[] = [];
  const ask = async (messages: Parameters<typeof o.judge.ask>[1]): Promise<string> => {
    const reply = await o.judge.ask('baseline', messages, {
      sample: o.seed,
      temperature: o.temperature,
      signal: o.signal,
    });
    calls.push(reply.call);
    return reply.text;
  };
  const messages = zeroShotPrompt(spec, code, language);
  const first = await ask(messages);
  let last = first;
  let parsed = parseVerdict(first);
  if (!parsed) {
    last = await ask(reaskMessages(messages, first, 'verdict', 'no verdict line'));
    parsed = parseVerdict(last);
  }
  return {
    verdict: parsed ? (parsed.verdict === 'CORRECT' ? 'accept' : 'reject') : 'inconclusive',
    reason: parsed ? parsed.reason : last.trim() || '(no verdict line, asked twice)',
    candidate: { label: candidate.label, id: candidate.id },
    seed: o.seed,
    llm: tallyCalls(calls, o.judge.model, o.judge.model),
  };
};
