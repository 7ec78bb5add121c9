import { describe, expect, it } from 'vitest';
import { createReport, renderHtml, renderMarkdown, renderTerminal } from '../../src/report/index.ts';
import { suiteRecords } from './records.ts';

// 'process' stops accidents, not attackers: wherever a user reads results that ran under it,
// the summary says so.
const WARNING = /ran untrusted candidates under isolation 'process', which is not a security boundary/;

describe("the suite summary under isolation 'process'", () => {
  it('should warn in every format when some checks ran under it, and stay quiet when none did', () => {
    // Arrange
    const records = suiteRecords();
    const mixed = records.map((r, i) => (i < 2 ? { ...r, isolation: 'process' as const } : r));
    const withProcess = createReport(mixed, { framework: 'vitest', shard: null });
    const withOs = createReport(records, { framework: 'vitest', shard: null });

    // Act
    const texts = [
      renderTerminal(withProcess, { color: false, width: 400 }),
      renderMarkdown(withProcess),
      renderHtml(withProcess).replaceAll('&#39;', "'").replaceAll('&#x27;', "'"),
    ];
    const quiet = [renderTerminal(withOs, { color: false, width: 400 }), renderMarkdown(withOs)];

    // Assert
    for (const text of texts) expect(text).toMatch(WARNING);
    expect(texts[0]).toMatch(/2 checks ran untrusted candidates/);
    for (const text of quiet) expect(text).not.toMatch(WARNING);
  });
});
