import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CrosscheckError } from '../errors/index.ts';
import type { Tagged } from '../values/index.ts';
import { encode } from '../values/index.ts';
import { literalCallArgs } from './python-literal.ts';

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
  /** Why crosscheck cannot run this task (reported for it; the others still run), or undefined. */
  readonly problem?: string | undefined;
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

/** Options of the dataset readers. @public */
export interface DatasetReadOptions {
  /**
   * Most bytes one dataset file may hold, compressed on disk and again once decompressed. A gzip
   * bomb or an oversized file stops with a typed error at this size instead of exhausting memory.
   * @defaultValue 256 MiB ({@link DEFAULT_DATASET_MAX_BYTES})
   */
  readonly maxBytes?: number;
}

/** Default {@link DatasetReadOptions.maxBytes}: 256 MiB, ten times the largest shipped dataset file decompressed. @public */
export const DEFAULT_DATASET_MAX_BYTES = 256 * 1024 * 1024;

const maxBytesOf = (options: DatasetReadOptions | undefined): number => {
  const x = options === undefined || !Object.hasOwn(options, 'maxBytes') ? undefined : options.maxBytes;
  if (x === undefined) return DEFAULT_DATASET_MAX_BYTES;
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x <= 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Dataset option maxBytes must be a positive integer, got ${String(x)}.`,
      {
        where: 'maxBytes',
      },
    );
  }
  return x;
};

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 3 : 0)} MiB`;

/**
 * The text of a dataset file, decompressed when it ends in `.gz`, never more than `maxBytes`:
 * zlib stops at the cap (a bomb is refused without being inflated), a truncated or corrupt
 * stream is a typed error naming the file, and so is any read failure.
 */
const readText = (path: string, maxBytes: number): string => {
  let buffer: Buffer;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) {
      throw new CrosscheckError(
        'INVALID_INPUT',
        `${path}: the file is ${mib(size)}, past the ${mib(maxBytes)} limit of a dataset file; raise maxBytes if it is genuine.`,
      );
    }
    buffer = readFileSync(path);
  } catch (error) {
    if (error instanceof CrosscheckError) throw error;
    throw new CrosscheckError(
      'IO_ERROR',
      `${path}: cannot read the dataset file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      { cause: error },
    );
  }
  if (!path.endsWith('.gz')) return buffer.toString('utf8');
  try {
    return gunzipSync(buffer, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `it decompresses to more than the ${mib(maxBytes)} limit of a dataset file (a gzip bomb, or raise maxBytes if it is genuine)`
        : code === 'Z_BUF_ERROR'
          ? 'the gzip stream is truncated (the file was cut off; download or copy it again)'
          : `it is not a valid gzip file (${(error as Error).message})`;
    throw new CrosscheckError('INVALID_INPUT', `${path}: ${why}.`, { cause: error });
  }
};

const readJsonLines = (path: string, options?: DatasetReadOptions): Record<string, unknown>[] => {
  const text = readText(path, maxBytesOf(options));
  const rows: Record<string, unknown>[] = [];
  let lineNo = 0;
  let from = 0;
  while (from <= text.length) {
    let nl = text.indexOf('\n', from);
    if (nl === -1) nl = text.length;
    const line = text.slice(from, nl);
    from = nl + 1;
    lineNo++;
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (error) {
      throw new CrosscheckError(
        'INVALID_INPUT',
        `${path}: line ${lineNo} is not valid JSON (${(error as Error).message}).`,
        {
          cause: error,
        },
      );
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new CrosscheckError('INVALID_INPUT', `${path}: line ${lineNo} is not a JSON object.`);
    }
    rows.push(row as Record<string, unknown>);
  }
  return rows;
};

const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

const seedsOf = (raw: Record<string, unknown>): Tagged[] => {
  const tagged = raw.seed_inputs_tagged;
  if (!Array.isArray(tagged)) return [];
  // Seeds are stored as `{"$tuple": [...args]}`; an argument list is what runners take.
  return tagged.map((t) => {
    const body = t !== null && typeof t === 'object' ? (t as { $tuple?: Tagged[] }).$tuple : undefined;
    return (Array.isArray(body) ? body : [t]) as Tagged;
  });
};

/**
 * EvalPlus (HumanEval+, MBPP+) keeps inputs as JSON argument lists in `base_input` and
 * `plus_input`. JSON has one number type, so an integral float (`1.0`) arrives as an int.
 */
const jsonSeedsOf = (raw: Record<string, unknown>): Tagged[] => {
  const lists = [raw.base_input, raw.plus_input].filter(Array.isArray) as unknown[][];
  const out: Tagged[] = [];
  for (const list of lists) {
    for (const args of list) {
      if (!Array.isArray(args)) continue;
      try {
        out.push(encode(args) as Tagged);
      } catch {
        // An argument list the codec cannot carry is skipped; the others still seed.
      }
    }
  }
  return out;
};

/** MBPP keeps inputs only in `test_list` assertions: their literal arguments, where readable. */
const testListSeedsOf = (raw: Record<string, unknown>, entry: string): Tagged[] => {
  const tests = Array.isArray(raw.test_list) ? raw.test_list.filter((t) => typeof t === 'string') : [];
  return tests.map((t) => literalCallArgs(t, entry)).filter((a): a is Tagged[] => a !== null);
};

/** MBPP names no entry point: the first function its `code` defines that the tests call. */
const mbppEntryOf = (raw: Record<string, unknown>): string | undefined => {
  const code = str(raw.code);
  const tests = Array.isArray(raw.test_list)
    ? raw.test_list.filter((t) => typeof t === 'string').join('\n')
    : '';
  if (!code || !tests) return undefined;
  const defined = [...code.matchAll(/^def\s+([A-Za-z_]\w*)\s*\(/gm)].map((m) => m[1] as string);
  return defined.find((name) => new RegExp(`(?<![\\w.])${name}\\s*\\(`).test(tests));
};

/**
 * The reference's source: `ground_truth_code` (this project's format), MBPP's `code`, or
 * HumanEval's `prompt` + `canonical_solution` (the solution there is only the function body).
 */
const referenceOf = (raw: Record<string, unknown>, entry: string): string | undefined => {
  const own = str(raw.ground_truth_code) ?? str(raw.code);
  if (own) return own;
  const solution = str(raw.canonical_solution);
  if (!solution) return undefined;
  if (new RegExp(`^def\\s+${entry}\\s*\\(`, 'm').test(solution)) return solution;
  const prompt = str(raw.prompt);
  return prompt ? prompt + solution : undefined;
};

/** A LiveCodeBench-style task: a program fed on stdin, or a method of `class Solution`. */
const livecodebenchProblem = (raw: Record<string, unknown>): string | undefined => {
  if (raw.question_id === undefined && raw.public_test_cases === undefined) return undefined;
  const cases = str(raw.public_test_cases) ?? JSON.stringify(raw.public_test_cases ?? '');
  const kind = /"testtype"\s*:\s*"functional"/.test(cases)
    ? 'a method of class Solution (functional)'
    : 'a stdin/stdout program';
  return `a LiveCodeBench-style task is ${kind}; crosscheck bench calls a plain function (entry_point) on argument tuples and has no runner for it`;
};

const describeId = (x: unknown): string => (x === undefined ? 'no task_id' : `task_id ${JSON.stringify(x)}`);

/** One line of tasks.jsonl as a task; throws for what no task can lack (its id). */
const parseTask = (raw: Record<string, unknown>, path: string, line: number): DatasetTask => {
  const rawId = raw.task_id ?? raw.question_id;
  const taskId =
    typeof rawId === 'string' && rawId !== ''
      ? rawId
      : typeof rawId === 'number' && Number.isSafeInteger(rawId)
        ? String(rawId)
        : undefined;
  if (taskId === undefined) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${path}: line ${line}: ${describeId(rawId)}; every task needs a task_id that is a non-empty string or an integer (MBPP's numbers are fine).`,
    );
  }
  const lcb = livecodebenchProblem(raw);
  const entryPoint = str(raw.entry_point) ?? str(raw.name) ?? mbppEntryOf(raw) ?? '';
  const problem =
    lcb ??
    (entryPoint === ''
      ? 'no entry point: give entry_point (or name), or MBPP-style code with a def that test_list calls'
      : undefined);
  const tagged = seedsOf(raw);
  const seedInputs =
    tagged.length > 0
      ? tagged
      : jsonSeedsOf(raw).length > 0
        ? jsonSeedsOf(raw)
        : testListSeedsOf(raw, entryPoint);
  return Object.freeze({
    taskId,
    entryPoint,
    signature: str(raw.signature),
    description: str(raw.description) ?? str(raw.text) ?? str(raw.question_content),
    prompt: str(raw.prompt),
    groundTruthCode: entryPoint === '' ? undefined : referenceOf(raw, entryPoint),
    seedInputs,
    test: str(raw.test),
    language: str(raw.language) ?? 'python',
    problem,
    raw,
  });
};

const firstExisting = (dir: string, names: readonly string[]): string | undefined =>
  names.map((n) => join(dir, n)).find((p) => existsSync(p));

/**
 * Reads `tasks.jsonl(.gz)` of a dataset directory: this project's format, and as they come from
 * their sources MBPP (numeric ids, `code`, `test_list`), HumanEval and EvalPlus HumanEval+ / MBPP+
 * (`prompt` + `canonical_solution`, `base_input`). A task crosscheck cannot run (LiveCodeBench's
 * stdin programs, no entry point) loads with a `problem` that the benchmark reports for it.
 * The fields are described by `docs/dataset.schema.json`.
 * @public
 */
export const loadTasks = (dir: string, options?: DatasetReadOptions): DatasetTask[] => {
  const path = firstExisting(dir, ['tasks.jsonl.gz', 'tasks.jsonl']);
  if (!path) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `No tasks.jsonl.gz (or tasks.jsonl) in ${resolve(dir)}; point --data at a dataset directory.`,
    );
  }
  const rows = readJsonLines(path, options);
  return rows.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new CrosscheckError(
        'INVALID_INPUT',
        `${path}: line ${i + 1}: expected a JSON object (one task per line), got ${JSON.stringify(raw).slice(0, 60)}.`,
      );
    }
    return parseTask(raw, path, i + 1);
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
export const loadCandidates = (
  dir: string,
  model: string,
  options?: DatasetReadOptions,
): Map<string, DatasetCandidates> => {
  const path = firstExisting(join(dir, 'candidates'), [`${model}.jsonl.gz`, `${model}.jsonl`]);
  if (!path) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `No candidates for model ${JSON.stringify(model)} in ${resolve(dir, 'candidates')}; available: ${listModels(dir).join(', ') || 'none'}.`,
    );
  }
  const out = new Map<string, DatasetCandidates>();
  for (const raw of readJsonLines(path, options)) {
    const id = raw.task_id;
    const taskId = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : str(id);
    if (!taskId || !Array.isArray(raw.codes)) continue;
    out.set(taskId, { taskId, codes: raw.codes.filter((c): c is string => typeof c === 'string') });
  }
  return out;
};

/** The paper's per-task results for a model, or null when the dataset has none. @public */
export const loadPaperLog = (
  dir: string,
  model: string,
  options?: DatasetReadOptions,
): PaperLogEntry[] | null => {
  const path = join(dir, 'paper_logs', `${model}.json`);
  if (!existsSync(path)) return null;
  let rows: unknown;
  try {
    rows = JSON.parse(readText(path, maxBytesOf(options)));
  } catch (error) {
    if (error instanceof CrosscheckError) throw error;
    throw new CrosscheckError('INVALID_INPUT', `${path}: not valid JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  if (!Array.isArray(rows) || !rows.every((r) => r !== null && typeof r === 'object')) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${path}: expected a JSON array of objects with task_id, Dis, Err.`,
    );
  }
  return (rows as Record<string, unknown>[]).map((r) => ({
    taskId: String(r.task_id),
    dis: typeof r.Dis === 'number' ? r.Dis : null,
    err: typeof r.Err === 'number' ? r.Err : null,
    failed: r.Failed === undefined ? null : String(r.Failed),
  }));
};
