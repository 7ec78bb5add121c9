import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CrosscheckError, withIo } from '../errors/index.ts';
import type { CrosscheckRecord } from '../report/index.ts';

/**
 * The resumable checkpoint: a JSON-lines file, one header line (the options that decide the
 * results) and one line per finished model-task pair, appended synchronously as each pair
 * finishes. A kill at any moment loses at most the line being written, which the next run drops.
 */

/** One model on one task, as the checkpoint keeps it. @public */
export interface PairResult {
  readonly model: string;
  readonly task: string;
  /**
   * `failed`: the pair was not run, the task could not be measured for this model (`reason`
   * says why). Reports call it "not run"; the value stays `failed` for the readers of reports.
   */
  readonly status: 'ok' | 'failed';
  readonly reason: string | null;
  /** Candidates and inputs actually used. */
  readonly m: number;
  readonly n: number;
  /** Î and Ê on the same inputs; null when not run. */
  readonly incoherence: number | null;
  readonly error: number | null;
  /**
   * Per candidate (in sampling order): its error share against the reference and its mean
   * disagreement with the other candidates, null where it had no counted cell. What the ranking's
   * bootstrap resamples within a task; absent in checkpoints written before it existed.
   */
  readonly candidates?: CandidateFigures;
  /** Candidate calls made for this pair (the reference's calls are counted per task). */
  readonly calls: number;
  readonly durationMs: number;
  /** The `coherence` record for the reporters; null when failed. */
  readonly record: CrosscheckRecord | null;
  /**
   * sha256 of the data the pair was measured on (the task's row and the model's first m
   * candidates): a resumed pair whose data changed since is measured again, never reused.
   */
  readonly data?: string;
}

/** Per-candidate figures of one pair (see {@link PairResult.candidates}). @public */
export interface CandidateFigures {
  readonly error: readonly (number | null)[];
  readonly disagreement: readonly (number | null)[];
}

type Fingerprint = Record<string, string | number | null>;

const pairKey = (model: string, task: string): string => `${model}\u0000${task}`;

/** Finished pairs of a checkpoint file, and appending to it. @public */
export class Checkpoint {
  readonly path: string;
  readonly #pairs = new Map<string, PairResult>();

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Opens (or starts) the checkpoint at `path`; `fresh` starts it over. Throws a
   * `CrosscheckError` when it was written with options that change results (the crosscheck
   * version among them), naming them, rather than silently mixing two runs.
   */
  static open(path: string, fingerprint: Fingerprint, fresh = false): Checkpoint {
    const checkpoint = new Checkpoint(path);
    if (fresh || !existsSync(path)) {
      withIo('create the directory', dirname(path), () => mkdirSync(dirname(path), { recursive: true }));
      withIo('write the checkpoint', path, () =>
        writeFileSync(path, `${JSON.stringify({ kind: 'header', fingerprint })}\n`),
      );
      return checkpoint;
    }
    const lines = withIo('read the checkpoint', path, () => readFileSync(path, 'utf8')).split('\n');
    let header: Fingerprint | null = null;
    for (const line of lines) {
      if (line.trim() === '') continue;
      let entry: { kind?: string; fingerprint?: Fingerprint; pair?: PairResult };
      try {
        entry = JSON.parse(line);
      } catch {
        // A line cut short by a kill mid-write: that pair simply runs again.
        continue;
      }
      if (entry === null || typeof entry !== 'object') continue;
      if (entry.kind === 'header' && entry.fingerprint) header = entry.fingerprint;
      else if (entry.kind === 'pair' && entry.pair)
        checkpoint.#pairs.set(pairKey(entry.pair.model, entry.pair.task), entry.pair);
    }
    const differing = header
      ? Object.keys({ ...header, ...fingerprint }).filter((k) => header[k] !== fingerprint[k])
      : ['header'];
    if (differing.length > 0) {
      const detail = header
        ? differing
            .map((k) => `${k}: ${JSON.stringify(header[k])} there, ${JSON.stringify(fingerprint[k])} now`)
            .join('; ')
        : 'it has no header line';
      throw new CrosscheckError(
        'INVALID_OPTION',
        `crosscheck bench: the checkpoint ${path} belongs to a run with other options (${detail}). Rerun with that run's options to resume it, start over with the option fresh (--fresh) or by deleting the file, or write elsewhere (--out).`,
        { where: 'crosscheck bench --out' },
      );
    }
    // A header-less tail (the previous process died before any pair) still needs a newline
    // before the next append, or the first new line would join a cut-off one.
    const text = withIo('read the checkpoint', path, () => readFileSync(path, 'utf8'));
    if (text !== '' && !text.endsWith('\n'))
      withIo('write the checkpoint', path, () => appendFileSync(path, '\n'));
    return checkpoint;
  }

  /** The finished result of a pair, if any. */
  get(model: string, task: string): PairResult | undefined {
    return this.#pairs.get(pairKey(model, task));
  }

  has(model: string, task: string): boolean {
    return this.#pairs.has(pairKey(model, task));
  }

  /** Records a finished pair, durably before returning (one synchronous append). */
  add(pair: PairResult): void {
    withIo('write the checkpoint', this.path, () =>
      appendFileSync(this.path, `${JSON.stringify({ kind: 'pair', pair })}\n`),
    );
    this.#pairs.set(pairKey(pair.model, pair.task), pair);
  }

  get size(): number {
    return this.#pairs.size;
  }
}
