import { describe, expect, it } from 'vitest';
import { CrosscheckError } from '../../src/errors/index.ts';
import { createReport, mergeReports, parseReport, renderJson } from '../../src/report/index.ts';
import { suiteRecords } from './records.ts';

const shards = () => {
  const records = suiteRecords();
  return [
    createReport(
      records.filter((r) => r.test.file === 'b.spec.ts'),
      { framework: 'vitest', shard: { count: 2, indexes: [2] } },
    ),
    createReport(
      records.filter((r) => r.test.file === 'a.spec.ts'),
      { framework: 'vitest', shard: { count: 2, indexes: [1] } },
    ),
  ];
};

describe('mergeReports', () => {
  it('should give the summary and records of the unsharded run', () => {
    // Arrange
    const whole = createReport(suiteRecords(), { framework: 'vitest', shard: null });
    // Act
    const merged = mergeReports(shards(), ['b.json', 'a.json']);
    // Assert
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.records).toEqual(whole.records);
    expect(merged.run).toEqual({ framework: 'vitest', shard: { count: 2, indexes: [1, 2] } });
  });

  it('should refuse the same shard twice', () => {
    // Arrange
    const [b] = shards();
    // Act
    const act = () => mergeReports([b!, b!], ['shard-2.json', 'copy.json']);
    // Assert
    expect(act).toThrow(CrosscheckError);
    expect(act).toThrow(
      'mergeReports(reports): shard 2/2 is in both shard-2.json and copy.json; merging it twice would count its checks twice. Pass each shard once.',
    );
  });

  it('should refuse shards of different splits and mixing shards with whole runs', () => {
    // Arrange
    const [b, a] = shards();
    const three = { ...a!, run: { framework: 'vitest', shard: { count: 3, indexes: [1] } } };
    const whole = createReport([], { framework: 'vitest', shard: null });
    // Act, Assert
    expect(() => mergeReports([b!, three], ['b.json', 'c.json'])).toThrow(
      'mergeReports(reports): c.json is a shard of 3 but b.json is a shard of 2. Merge the shards of one run.',
    );
    expect(() => mergeReports([b!, whole], ['b.json', 'all.json'])).toThrow(
      'mergeReports(reports): all.json is an unsharded report but others are shards. Merge the shards of one run (`--shard=i/k` for every i), or unsharded reports only.',
    );
  });

  it('should join the framework names of different runs', () => {
    // Arrange
    const a = createReport(suiteRecords().slice(0, 2), { framework: 'vitest', shard: null });
    const b = createReport(suiteRecords().slice(2), { framework: 'jest', shard: null });
    // Act
    const merged = mergeReports([a, b]);
    // Assert
    expect(merged.run).toEqual({ framework: 'jest+vitest', shard: null });
  });
});

describe('parseReport', () => {
  it('should round-trip a report through its JSON', () => {
    // Arrange
    const report = createReport(suiteRecords(), { framework: 'jest', shard: { count: 2, indexes: [1] } });
    // Act
    const parsed = parseReport(renderJson(report), 'r.json');
    // Assert
    expect(parsed).toEqual(report);
  });

  it('should name the file, the rule and the fix for a file that is not a report', () => {
    // Act, Assert
    expect(() => parseReport('{"tests": []}', 'results.json')).toThrow(
      'crosscheck report (results.json): expected a crosscheck/report object, got an object with keys [tests]. Pass a crosscheck-report.json written by a crosscheck reporter.',
    );
    expect(() => parseReport('{', 'cut.json')).toThrow(/^crosscheck report \(cut\.json\): not JSON \(/);
    expect(() => parseReport({ schema: 'crosscheck/report', version: 9 }, 'new.json')).toThrow(
      'crosscheck report (new.json): report version 9 (number) is not supported (this crosscheck reads version 1). Render it with the crosscheck version that wrote it.',
    );
  });
});
