import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../src/candidates/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { coherenceProperty, recordPropertyRuns } from '../../src/fast-check/index.ts';
import { gen } from '../../src/inputs/index.ts';
import {
  type CrosscheckRecord,
  type CrosscheckReport,
  createReport,
  parseRecord,
  type RecordBase,
  renderHtml,
  renderMarkdown,
  renderTerminal,
} from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { installPackage, PLAIN_ENV, spawnJest, spawnVitest } from '../helpers/spawn-host.ts';
import { coherence } from '../report/records.ts';

/**
 * Issue 15: fast-check bridge runs write a `property` record that reaches the reporters as a
 * property result, apart from incoherence measurements, and never counts in their figures.
 */

const sortAsc = (xs: number[]) => [...xs].sort((a, b) => a - b);
const insertionSort = (xs: number[]) => {
  const out: number[] = [];
  for (const x of xs) {
    let i = out.length;
    while (i > 0 && (out[i - 1] as number) > x) i--;
    out.splice(i, 0, x);
  }
  return out;
};
const lexicalSort = (xs: number[]) => [...xs].sort();
const task = defineTask({ name: 'sortAsc', inputs: gen.fromSignature('(xs: number[]) => number[]') });

type PropertyRecord = RecordBase<'property'>;
const only = (records: readonly CrosscheckRecord[]): PropertyRecord => {
  expect(records).toHaveLength(1);
  const record = records[0] as CrosscheckRecord;
  expect(record.kind).toBe('property');
  return record as PropertyRecord;
};

describe('property records', () => {
  it('should record a falsified run: seed, path that replays it, counterexample, shrunk witness, outcomes', async () => {
    // Arrange
    const property = coherenceProperty(
      task,
      fromFunctions({ sortAsc, lexicalSort }, { tags: { model: 'm' } }),
    );
    // Act
    const details = await fc.check(property, { numRuns: 200, seed: 7 });
    // Assert
    const record = only(property.records);
    expect(record).toMatchObject({
      verdict: 'fail',
      task: 'sortAsc',
      tags: { model: 'm' },
      seed: 7,
      m: 2,
      n: details.numRuns,
      test: { matcher: 'coherenceProperty', negated: false },
      data: {
        property: 'coherenceProperty',
        biased: true,
        outcome: 'falsified',
        seed: 7,
        path: details.counterexamplePath,
        runsRequested: 200,
        runs: details.numRuns,
        shrinks: details.numShrinks,
        counterexample: fc.stringify(details.counterexample),
      },
    });
    expect(record.data.failure).toContain('The candidates disagree on');
    // The witness is the shrunk input the candidates ran, with each class's output on it.
    const [[xs]] = details.counterexample as [[number[]]];
    expect(JSON.parse(record.witness?.input as string)).toEqual([xs]);
    expect(record.witness?.outputs.map((o) => o.labels)).toEqual([['sortAsc'], ['lexicalSort']]);
    expect(record.witness?.shrinkSteps).toBe(details.numShrinks);
    expect(record.witness?.original).not.toBe(record.witness?.input);
    // Every input the candidates ran, shrinking included, is in each candidate's outcomes.
    expect(record.data.inputsRun).toBeGreaterThan(details.numRuns);
    for (const c of record.data.candidates) expect(c.value).toBe(record.data.inputsRun);
    // The recorded seed and path replay the counterexample.
    const replay = await fc.check(property, { seed: record.data.seed, path: record.data.path as string });
    expect(replay.counterexample).toEqual(details.counterexample);
    expect(property.records).toHaveLength(2);
  });

  it('should record a run that held, with no witness, no bound and no certificate', async () => {
    // Arrange
    const property = coherenceProperty(task, fromFunctions({ sortAsc, insertionSort }));
    // Act
    await fc.assert(property, { numRuns: 30, seed: 3 });
    // Assert
    const record = only(property.records);
    expect(record).toMatchObject({
      verdict: 'pass',
      witness: null,
      classes: [],
      unknown: null,
      inconclusive: null,
    });
    expect(record.data).toMatchObject({
      outcome: 'held',
      runs: 30,
      path: null,
      counterexample: null,
      failure: null,
    });
    expect(record.data.candidates).toEqual([
      { label: 'sortAsc', value: 30, invalid: 0, error: 0, timeout: 0, crash: 0 },
      { label: 'insertionSort', value: 30, invalid: 0, error: 0, timeout: 0, crash: 0 },
    ]);
    expect(JSON.stringify(record)).not.toMatch(/certificate|epsilon|delta|incoherence/);
  });

  it('should record a run whose every input was invalid as too many skips', async () => {
    // Arrange: bad input, the reference rejects every list.
    const nothingValid = defineTask({
      name: 'nothingValid',
      inputs: gen.fromSignature('(xs: number[]) => number[]'),
      reference: () => {
        throw new RangeError('no input is valid');
      },
    });
    const property = coherenceProperty(nothingValid, fromFunctions({ sortAsc, insertionSort }));
    // Act
    const details = await fc.check(property, { numRuns: 5, maxSkipsPerRun: 2, seed: 1 });
    // Assert
    expect(details.failed).toBe(true);
    const record = only(property.records);
    expect(record.verdict).toBe('fail');
    expect(record.data).toMatchObject({ outcome: 'too-many-skips', runs: 0, skips: details.numSkips });
    expect(record.data.skips).toBeGreaterThan(0);
  });

  it('should record a run once when the plugin is also passed explicitly', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, insertionSort }));
    await fc.assert(property, { numRuns: 10, seed: 1, plugins: [recordPropertyRuns, recordPropertyRuns] });
    expect(property.records).toHaveLength(1);
  });

  it('should record nothing for calls outside a fast-check run', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, lexicalSort }));
    expect(await property.findDisagreement([[10, 9]])).not.toBeNull();
    expect(property.records).toHaveLength(0);
  });

  it('should refuse a damaged property record with a typed error naming the field', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, insertionSort }));
    await fc.assert(property, { numRuns: 5, seed: 1 });
    const record = only(property.records);
    expect(parseRecord(JSON.stringify(record))).toEqual(record);
    for (const [data, field] of [
      [{ ...record.data, biased: false }, 'record.data.biased'],
      [{ ...record.data, outcome: 'certified' }, 'record.data.outcome'],
      [{ ...record.data, runs: -1 }, 'record.data.runs'],
    ] as const) {
      let error: unknown = null;
      try {
        parseRecord({ ...record, data });
      } catch (e) {
        error = e;
      }
      expect(isCrosscheckError(error) && error.code).toBe('INVALID_INPUT');
      expect((error as Error).message).toContain(field);
    }
  });
});

describe('property records in reports', () => {
  const falsified = async (): Promise<PropertyRecord> => {
    const property = coherenceProperty(
      task,
      fromFunctions({ sortAsc, lexicalSort }, { tags: { model: 'alpha' } }),
    );
    await fc.check(property, { numRuns: 200, seed: 7 });
    return only(property.records);
  };

  it('should count into no task, flag, error-bound, detection or ranking figure', async () => {
    // Arrange: measurements of two tasks, and a falsified property on one of the same (task, model).
    const measured = [
      coherence({ task: 'sortAsc', model: 'alpha', incoherence: 0, error: 0 }),
      coherence({ task: 'max', model: 'alpha', incoherence: 0.2, error: 0.3 }),
    ];
    const property = await falsified();
    // Act
    const without = createReport(measured, { framework: 'vitest', shard: null }).summary;
    const withProperty = createReport([...measured, property], { framework: 'vitest', shard: null }).summary;
    // Assert
    const { checks, failedChecks, properties, isolation, ...figures } = withProperty.suite;
    const { checks: c0, failedChecks: f0, properties: p0, isolation: i0, ...figures0 } = without.suite;
    expect(figures).toEqual(figures0);
    expect(withProperty.points).toEqual(without.points);
    expect(withProperty.ranking).toEqual(without.ranking);
    expect([checks, failedChecks, properties]).toEqual([c0 + 1, f0 + 1, { runs: 1, failed: 1 }]);
    expect(p0).toEqual({ runs: 0, failed: 0 });
    const row = withProperty.rows.find((r) => r.kind === 'property');
    expect(row).toMatchObject({
      disagreement: null,
      incoherence: null,
      error: null,
      errorLowerBound: null,
      pac: null,
    });
  });

  it('should show property runs apart from the checks in every format', async () => {
    // Arrange
    const report = createReport(
      [coherence({ task: 'max', model: 'alpha', incoherence: 0.2 }), await falsified()],
      {
        framework: 'vitest',
        shard: null,
      },
    );
    // Act
    const terminal = renderTerminal(report, { color: false, width: 200 });
    const md = renderMarkdown(report);
    const html = renderHtml(report);
    // Assert
    expect(terminal).toContain('2 checks · 1 failed · 1 task · 1 flagged · 1 property run (1 failed)');
    const [checks, properties] = terminal.split('  Properties\n');
    expect(checks).not.toContain('coherenceProperty');
    expect(properties).toContain('no error bound and no PAC certificate');
    expect(properties).toMatch(/✗ {2}sortAsc {2}alpha .* falsified \(\d+ shrinks\) +7 {2}[\d:]+ {2}\[\[\[/);
    const [mdChecks, mdProperties] = md.split('### Property runs (fast-check)');
    expect(mdChecks).not.toContain('coherenceProperty');
    expect(mdProperties).toMatch(
      /\| ✗ \| sortAsc \| alpha \| — \| coherenceProperty \| \d+ of 200 \| falsified/,
    );
    expect(mdProperties).toContain('{ seed: 7, path: "');
    const data = JSON.parse(
      /<script type="application\/json" id="checks-data">([\s\S]*?)<\/script>/.exec(html)?.[1] as string,
    );
    expect(data.map((r: { c: string }) => r.c)).toEqual(['toHaveIncoherenceBelow']);
    expect(html).toContain('<h2 id="properties">Property runs (fast-check)</h2>');
    expect(html).toContain('coherenceProperty');
  });
});

/** Real test runs through @fast-check/vitest and @fast-check/jest, with the crosscheck reporters. */
describe('property records through the test-framework reporters', () => {
  const work = mkdtempSync(join(tmpdir(), 'crosscheck-property-records-'));
  const fixtures = join(import.meta.dirname, '..', 'fixtures');
  let vitest: { exitCode: number | undefined; all: string | undefined; report: CrosscheckReport };
  let jest: { exitCode: number | undefined; all: string | undefined; report: CrosscheckReport };

  beforeAll(async () => {
    const out = join(work, 'vitest');
    const run = await spawnVitest(join(fixtures, 'property-vitest'), {
      env: { REPORT_OUT: out, ...PLAIN_ENV },
    });
    vitest = { ...run, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) };
    const project = join(fixtures, 'property-jest');
    await installPackage(project, {
      '.': 'src/index.ts',
      './fast-check': 'src/fast-check/index.ts',
      './jest': 'matchers/jest.ts',
      './jest-reporter': 'reporter/jest.ts',
    });
    const jestOut = join(work, 'jest');
    const jestRun = await spawnJest(join(project, 'jest.config.mjs'), {
      args: ['--cacheDirectory', join(work, 'jest-cache')],
      env: { REPORT_OUT: jestOut, ...PLAIN_ENV },
    });
    jest = { ...jestRun, report: JSON.parse(readFileSync(join(jestOut, 'report.json'), 'utf8')) };
  });

  const expectRecords = (report: CrosscheckReport, framework: string, checkName: string) => {
    // Vitest joins describe and test with ' > ', Jest with ' '; @fast-check/* append the seed.
    const key = (name: string | null) =>
      (name ?? '').replace(/ \(with seed=-?\d+\)$/, '').replace(/^sortAsc >? ?/, '');
    const byTest = new Map(report.records.map((r) => [key(r.test.name), r]));
    expect([...byTest.keys()].sort()).toEqual(
      [
        'bad: candidates agree',
        `good: ${checkName}`,
        'good: candidates agree',
        'nothing valid: candidates agree',
      ].sort(),
    );
    expect(report.run.framework).toBe(framework);
    for (const r of report.records) {
      expect(r.kind).toBe('property');
      expect(r.test.file).toMatch(/^sort\.spec\.m?[jt]s$/);
    }
    const bad = byTest.get('bad: candidates agree') as PropertyRecord;
    expect(bad).toMatchObject({ verdict: 'fail', tags: { model: 'bad' }, seed: 7 });
    expect(bad.data.outcome).toBe('falsified');
    expect(bad.data.path).toMatch(/^\d+(:\d+)*$/);
    expect(bad.witness?.outputs.map((o) => o.labels)).toEqual([['sortAsc'], ['lexicalSort']]);
    const good = byTest.get('good: candidates agree') as PropertyRecord;
    expect(good).toMatchObject({
      verdict: 'pass',
      tags: { model: 'good' },
      seed: 5,
      data: { outcome: 'held', runs: 40 },
    });
    const skipped = byTest.get('nothing valid: candidates agree') as PropertyRecord;
    expect(skipped).toMatchObject({ verdict: 'fail', data: { outcome: 'too-many-skips', runs: 0 } });
    expect(report.summary.suite).toMatchObject({
      checks: 4,
      failedChecks: 2,
      tasks: 0,
      flaggedTasks: 0,
      references: null,
      properties: { runs: 4, failed: 2 },
    });
  };

  it('should deliver every @fast-check/vitest run to the Vitest reporter', () => {
    // Two properties fail by design (a disagreement, an input set with nothing valid).
    expect(vitest.exitCode, vitest.all).toBe(1);
    expectRecords(vitest.report, 'vitest', 'fc.assert');
    expect(vitest.all).toContain('4 checks · 2 failed · 4 property runs (2 failed) (vitest)');
    expect(vitest.all).toContain('\n  Properties\n');
  });

  it('should deliver every @fast-check/jest run to the Jest reporter', () => {
    expect(jest.exitCode, jest.all).toBe(1);
    expectRecords(jest.report, 'jest', 'fc.check finds nothing');
    expect(jest.all).toContain('4 checks · 2 failed · 4 property runs (2 failed) (jest)');
  });
});
