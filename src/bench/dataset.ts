import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CrosscheckError } from '../errors/index.ts';
import type { Tagged } from '../values/codec-core.ts';

/**
 * Datasets on disk in the format of `shared/data/README.md`: `tasks.jsonl.gz` and
 * `candidates/<model>.jsonl.gz`, optionally `paper_logs/<model>.json`.
 */

/** One task of a dataset (the fields crosscheck uses; others are kept in `raw`). @public */
export interface DatasetTask {
  readonly taskId: string;
  readonly entryPoint: string;
  readonly signature: string | undefined;
  readonly description: string | undefined;
  readonly prompt: string | undefined;
  /** Source of the reference implementation. */
  readonly groundTruthCode: string | undefined;
  /** Seed inputs, each the tagged tuple of positional arguments. */
  readonly seedInputs: readonly Tagged[];
  /** The benchmark's own test code (HumanEval: `def check(candidate)`). */
  readonly test: string | undefined;
  /** Language of candidates and reference; Python unless the task says otherwise. */
  readonly language: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** One model's candidates for one task. @public */
export interface DatasetCandidates {
  readonly taskId: string;
  readonly codes: readonly string[];
}

/** The paper's own per-task result (`paper_logs`). @public */
export interface PaperLogEntry {
  readonly taskId: string;
  readonly dis: number | null;
  readonly err: number | null;
  readonly failed: string | null;
}

const readJsonLines = (path: string): Record<string, unknown>[] => {
  const buffer = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(buffer).toString('utf8') : buffer.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch (error) {
        throw new CrosscheckError('INVALID_INPUT', `${path}: line ${i + 1} is not valid JSON.`, {
          cause: error,
        });
      }
    });
};

const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

const seedsOf = (raw: Record<string, unknown>): Tagged[] => {
  const tagged = raw.seed_inputs_tagged;
  if (!Array.isArray(tagged)) return [];
  // Seeds are stored as `{"$tuple": [...args]}`; an argument list is what runners take.
  return tagged.map((t) => {
    const body = (t as { $tuple?: Tagged[] }).$tuple;
    return (Array.isArray(body) ? body : [t]) as Tagged;
  });
};

const firstExisting = (dir: string, names: readonly string[]): string | undefined =>
  names.map((n) => join(dir, n)).find((p) => existsSync(p));

/** Reads `tasks.jsonl(.gz)` of a dataset directory. @public */
export const loadTasks = (dir: string): DatasetTask[] => {
  const path = firstExisting(dir, ['tasks.jsonl.gz', 'tasks.jsonl']);
  if (!path) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `No tasks.jsonl.gz (or tasks.jsonl) in ${resolve(dir)}; point --data at a dataset directory.`,
    );
  }
  return readJsonLines(path).map((raw) => {
    const taskId = str(raw.task_id);
    const entryPoint = str(raw.entry_point) ?? str(raw.name);
    if (!taskId || !entryPoint) {
      throw new CrosscheckError(
        'INVALID_INPUT',
        `${path}: every task needs task_id and entry_point (or name); got ${JSON.stringify(raw).slice(0, 120)}.`,
      );
    }
    return Object.freeze({
      taskId,
      entryPoint,
      signature: str(raw.signature),
      description: str(raw.description),
      prompt: str(raw.prompt),
      groundTruthCode: str(raw.ground_truth_code),
      seedInputs: seedsOf(raw),
      test: str(raw.test),
      language: str(raw.language) ?? 'python',
      raw,
    });
  });
};

/** Models with a `candidates/<model>.jsonl(.gz)` file, sorted. @public */
export const listModels = (dir: string): string[] => {
  const folder = join(dir, 'candidates');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl.gz') || f.endsWith('.jsonl'))
    .map((f) => f.replace(/\.jsonl(\.gz)?$/, ''))
    .sort();
};

/** A model's candidates, by task id. @public */
export const loadCandidates = (dir: string, model: string): Map<string, DatasetCandidates> => {
  const path = firstExisting(join(dir, 'candidates'), [`${model}.jsonl.gz`, `${model}.jsonl`]);
  if (!path) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `No candidates for model ${JSON.stringify(model)} in ${resolve(dir, 'candidates')}; available: ${listModels(dir).join(', ') || 'none'}.`,
    );
  }
  const out = new Map<string, DatasetCandidates>();
  for (const raw of readJsonLines(path)) {
    const taskId = str(raw.task_id);
    if (!taskId || !Array.isArray(raw.codes)) continue;
    out.set(taskId, { taskId, codes: raw.codes.filter((c): c is string => typeof c === 'string') });
  }
  return out;
};

/** The paper's per-task results for a model, or null when the dataset has none. @public */
export const loadPaperLog = (dir: string, model: string): PaperLogEntry[] | null => {
  const path = join(dir, 'paper_logs', `${model}.json`);
  if (!existsSync(path)) return null;
  const rows = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>[];
  return rows.map((r) => ({
    taskId: String(r.task_id),
    dis: typeof r.Dis === 'number' ? r.Dis : null,
    err: typeof r.Err === 'number' ? r.Err : null,
    failed: r.Failed === undefined ? null : String(r.Failed),
  }));
};
