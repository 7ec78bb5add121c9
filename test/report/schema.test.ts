import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { perModel, readReport } from '../../src/index.ts';
import { reportSchemaProblems as problems, reportSchema as schema } from '../helpers/report-schema.ts';
import { PLAIN_ENV, spawnVitest } from '../helpers/spawn-host.ts';

/**
 * docs/report.schema.json against every report the project writes: a real Vitest run of a fixture
 * project with a check of every kind a person reads (incoherence, detection, ranking, triangulation
 * selection and abstention, grounded review, an LLM pipeline's samples with per-sample tokens and a
 * judged equivalence), and a real `crosscheck bench` run on a small dataset. Ajv 8 (JSON Schema
 * 2020-12, strict mode, test/helpers/report-schema.ts) validates; a broken report must fail with a
 * message that names the field. The Jest reporter's report and merged shards (suite and bench) are
 * validated where their tests make them: reporter/jest, reporter/vitest and bench/shard.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-schema-'));

/** Two models of two candidates on three JavaScript tasks; beta's second candidate is wrong. */
const buildDataset = (dir: string): void => {
  mkdirSync(join(dir, 'candidates'), { recursive: true });
  const rows = [0, 1, 2].map((i) => ({
    task_id: `T/${i}`,
    entry_point: 'f',
    language: 'javascript',
    ground_truth_code: `function f(x) { return x * 2 + ${i}; }`,
    seed_inputs_tagged: [0, 1, 2, 3, 4].map((k) => ({ $tuple: [k] })),
  }));
  writeFileSync(join(dir, 'tasks.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const codes: Record<string, (i: number) => string[]> = {
    alpha: (i) => [`function f(x) { return x * 2 + ${i}; }`, `function f(x) { return 2 * x + ${i}; }`],
    beta: (i) => [
      `function f(x) { return x * 2 + ${i}; }`,
      `function f(x) { return x > 3 ? x : x * 2 + ${i}; }`,
    ],
  };
  for (const [model, of] of Object.entries(codes)) {
    const lines = rows.map((_, i) => JSON.stringify({ task_id: `T/${i}`, codes: of(i) }));
    writeFileSync(join(dir, 'candidates', `${model}.jsonl`), `${lines.join('\n')}\n`);
  }
};

let suiteReport: unknown;
let benchReport: unknown;
let benchPath: string;

beforeAll(async () => {
  const out = join(work, 'suite');
  const run = await spawnVitest(join(ROOT, 'test', 'fixtures', 'report-kinds'), {
    env: { REPORT_OUT: out, ...PLAIN_ENV },
    // A whole Vitest run on a shared machine: give it room, as the heavy suite runs one file at a time.
    timeoutMs: 240_000,
  });
  expect(run.exitCode, run.all).toBe(0);
  suiteReport = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const data = join(work, 'data');
  buildDataset(data);
  benchPath = join(work, 'bench.json');
  const bench = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'test', 'bench', 'fixtures', 'run-bench.ts'),
      ...['--data', data, '--m', '2', '--n', '20', '--jobs', '1', '--out', benchPath],
    ],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 240_000 },
  );
  expect(bench.status, `${bench.stdout}\n${bench.stderr}`).toBe(0);
  benchReport = JSON.parse(readFileSync(benchPath, 'utf8'));
});

describe('docs/report.schema.json', () => {
  it('is a JSON Schema 2020-12 with a description on every property', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const missing: string[] = [];
    // Walks schema positions only: a field may itself be named `properties` or `items`.
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const s = node as Record<string, unknown>;
      for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
        const description = (value as { description?: unknown }).description;
        if (typeof description !== 'string' || description.length < 3) missing.push(`${path}.${key}`);
        walk(value, `${path}.${key}`);
      }
      for (const [key, value] of Object.entries((s.$defs ?? {}) as Record<string, unknown>))
        walk(value, `#/$defs/${key}`);
      for (const key of ['anyOf', 'allOf', 'oneOf'] as const)
        for (const [i, sub] of ((s[key] ?? []) as unknown[]).entries()) walk(sub, `${path}/${key}/${i}`);
      walk(s.items, `${path}[]`);
      walk(s.additionalProperties, `${path}{}`);
    };
    walk(schema, '#');
    expect(missing).toEqual([]);
  });

  it('validates the report of a real Vitest run with every kind of check', () => {
    const report = suiteReport as { records: { kind: string }[] };
    expect(new Set(report.records.map((r) => r.kind))).toEqual(
      new Set(['coherence', 'detection', 'ranking', 'triangulation', 'review']),
    );
    expect(problems(suiteReport)).toBe('');
  });

  it('validates the record of a pipeline check, with its per-sample rows and the judge summary', () => {
    // Arrange
    type PipedRecord = {
      task: string | null;
      llm?: { candidates?: { label: string }[]; equivalence?: { judge: string; agreement: unknown } } | null;
    };
    const piped = (suiteReport as { records: PipedRecord[] }).records.find((r) => r.task === 'invoiceTotal');
    const broken = structuredClone(suiteReport) as { records: PipedRecord[] };
    const brokenLlm = broken.records.find((r) => r.task === 'invoiceTotal')?.llm;
    if (brokenLlm?.equivalence) brokenLlm.equivalence.agreement = 2;
    // Act
    const valid = problems(suiteReport);
    const invalid = problems(broken);
    // Assert: the fields the schema once refused are there and validate; a wrong one is named.
    expect(piped?.llm?.candidates?.map((c) => c.label)).toEqual(['total#0', 'total#1', 'total#2']);
    expect(piped?.llm?.equivalence).toMatchObject({ judge: 'judge-m', agreement: 1, checked: 2 });
    expect(valid).toBe('');
    expect(invalid).toMatch(/\/records\/\d+\/llm\/equivalence\/agreement must be <= 1/);
  });

  it('validates the report of a real `crosscheck bench` run', () => {
    const report = benchReport as { bench: { pairs: unknown[]; figures: { models: unknown[] } } };
    expect(report.bench.pairs).toHaveLength(6);
    expect(report.bench.figures.models).toHaveLength(2);
    expect(problems(benchReport)).toBe('');
  });

  it('refuses a deliberately broken report, naming the field', () => {
    const broken = structuredClone(suiteReport) as {
      records: { verdict: unknown; kind: string; data: { verdict?: unknown } }[];
      summary: { suite: { flaggedTasks: unknown } };
    };
    const review = broken.records.find((r) => r.kind === 'review');
    if (!review) throw new Error('the fixture wrote no review record');
    review.data.verdict = 'maybe';
    broken.summary.suite.flaggedTasks = -1;
    const message = problems(broken);
    expect(message).toMatch(/\/records\/\d+\/data\/verdict must be equal to one of the allowed values/);
    expect(message).toContain('/summary/suite/flaggedTasks must be >= 0');
    const benchBroken = structuredClone(benchReport) as { bench: { pairs: { status: unknown }[] } };
    (benchBroken.bench.pairs[0] as { status: unknown }).status = 'done';
    expect(problems(benchBroken)).toMatch(
      /\/bench\/pairs\/0\/status must be equal to one of the allowed values/,
    );
    const extra = { ...(suiteReport as object), summry: {} };
    expect(problems(extra)).toContain('must NOT have additional properties');
  });
});

describe('readReport and perModel', () => {
  it('read the bench report from its path, typed and checked, with per-model means of the pairs that ran', () => {
    const report = readReport(benchPath);
    expect(report.bench?.complete).toBe(true);
    const inc = perModel(report, 'incoherence');
    const err = perModel(report, 'error');
    expect(Object.keys(inc).sort()).toEqual(['alpha', 'beta']);
    expect(inc.alpha).toBe(0);
    expect(inc.beta as number).toBeGreaterThan(0);
    expect(err.beta as number).toBeGreaterThan(0);
    // The same means as the pairs say, as the guide's inline helper computed them.
    const pairs = report.bench?.pairs.filter((p) => p.model === 'beta' && p.status === 'ok') ?? [];
    expect(inc.beta).toBeCloseTo(pairs.reduce((a, p) => a + (p.incoherence as number), 0) / pairs.length, 12);
  });

  it('read a suite report from JSON text; perModel falls back to the summary ranking', () => {
    const report = readReport(JSON.stringify(suiteReport));
    expect(report.bench).toBeNull();
    expect(perModel(report, 'incoherence')).toEqual({ m1: expect.any(Number) });
  });

  it('refuse a broken report with a CrosscheckError that names the field, and a missing file with IO_ERROR', () => {
    const broken = structuredClone(benchReport) as { bench: { pairs: { status: unknown }[] } };
    (broken.bench.pairs[0] as { status: unknown }).status = 'done';
    expect(() => readReport(broken)).toThrow(/bench\.pairs\[0\] must be/);
    expect(() => readReport(join(work, 'nope.json'))).toThrow(expect.objectContaining({ code: 'IO_ERROR' }));
    expect(() => perModel(readReport(benchPath), 'speed' as never)).toThrow(
      /`figure` must be 'incoherence' or 'error'/,
    );
  });
});
