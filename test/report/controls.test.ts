import { afterAll, describe, expect, it } from 'vitest';
import { toBeCoherentAcross } from '../../matchers/index.ts';
import {
  candidates,
  closeSandboxPools,
  defineTask,
  describeOutcome,
  formatTagged,
  fromFunctions,
  neutralizeControls,
  type Outcome,
  run,
} from '../../src/index.ts';
import {
  type CrosscheckRecord,
  createReport,
  renderHtml,
  renderJson,
  renderMarkdown,
  renderTerminal,
} from '../../src/report/index.ts';
import { context } from '../matchers/context.ts';
import { coherence } from './records.ts';

/**
 * Text a candidate controls reaches people through outcomes, witnesses, failure messages and
 * every report format. Whatever it holds, a terminal that prints it must only print it.
 */

const ESC = '\u001b';
// Clears the screen, retitles the window, rings, returns the carriage, reverses the line (bidi
// override), and a C1 CSI: each a way to make a terminal act instead of show.
const HOSTILE = `ok${ESC}[2J${ESC}]0;owned\u0007\rFAKE PASS\u202etxet\u009b31m\u2066end`;

/** Characters a terminal or viewer acts on: C0 (but tab and line feed), DEL, C1, bidi controls. */
const acting = (text: string): string[] =>
  [...text].filter((ch) => {
    const c = ch.charCodeAt(0);
    return (
      (c < 0x20 && c !== 0x09 && c !== 0x0a) ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    );
  });

/** The text without the colour sequences the renderer itself writes (ESC [ digits m). */
const withoutColours = (text: string): string => text.split(new RegExp(`${ESC}\\[[0-9;]*m`)).join('');

describe('control characters from candidates', () => {
  afterAll(async () => {
    await closeSandboxPools();
  });

  it('should show them as escapes', () => {
    expect(neutralizeControls(HOSTILE)).toBe(
      'ok\\x1b[2J\\x1b]0;owned\\x07\\rFAKE PASS\\u202etxet\\x9b31m\\u2066end',
    );
    expect(neutralizeControls('a\tb\nc')).toBe('a\tb\\nc');
    expect(neutralizeControls('a\tb\nc', { newlines: true })).toBe('a\tb\nc');
  });

  it('should keep them out of describeOutcome and formatTagged for a sandboxed candidate', async () => {
    const task = defineTask({ name: 'echo', description: 'Echo.' });
    const pool = candidates.fromSources(
      [
        { source: `function echo(s) { return s; }`, label: 'returns' },
        { source: `function echo(s) { const e = new Error(s); e.name = s; throw e; }`, label: 'throws' },
        { source: `function echo(s) { throw new RangeError(s); }`, label: 'invalid' },
      ],
      { language: 'javascript', entry: 'echo' },
    );
    const matrix = await run(task, pool, [[HOSTILE]], { isolation: 'process' });
    const outcomes = matrix.outcomes.map((row) => row[0] as Outcome);
    expect(outcomes.map((o) => o.kind)).toEqual(['value', 'error', 'invalid']);
    for (const o of outcomes) {
      const text = describeOutcome(o);
      expect(acting(text), text).toEqual([]);
      // Shown as escapes (JSON's for a returned string, ours for a message).
      expect(text).toMatch(/\\(x1b|u001b)\[2J/);
      expect(text).toContain('\\u202e');
    }
    const value = outcomes[0] as Extract<Outcome, { kind: 'value' }>;
    expect(acting(formatTagged(value.tagged))).toEqual([]);
    // The value itself is untouched: only what is shown is escaped.
    expect(value.value).toBe(HOSTILE);
  });

  it('should keep them out of a matcher failure message and its witness', async () => {
    const task = defineTask({ name: 'echo', inputs: [[1], [2]] as never, description: 'Echo.' });
    const result = await toBeCoherentAcross.call(
      context(),
      task,
      fromFunctions({
        [`plain${ESC}[31m`]: (x: number) => `${x}`,
        hostile: (x: number) => `${x}${HOSTILE}`,
      }),
      { seed: 1 },
    );
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(acting(message), message).toEqual([]);
    expect(message).toContain('\\u202etxet');
    expect(message).toContain('plain\\x1b[31m');
  });

  describe('in every report format', () => {
    const framework = `vitest_*|<b>${HOSTILE}`;
    const record = (): CrosscheckRecord => {
      const r = coherence({
        task: HOSTILE,
        model: HOSTILE,
        incoherence: 0.2,
        pass: false,
        classes: [0.5, 0.5],
      });
      return {
        ...r,
        classes: [
          { labels: [HOSTILE], share: 0.5 },
          { labels: ['b'], share: 0.5 },
        ],
        witness: {
          reason: 'candidates disagree',
          input: `["${HOSTILE}"]`,
          original: `["${HOSTILE}"]`,
          shrinkSteps: 0,
          outputs: [
            { labels: [HOSTILE], kind: 'value', outcome: HOSTILE },
            { labels: ['b'], kind: 'error', outcome: HOSTILE },
          ],
          reference: HOSTILE,
        },
      } as CrosscheckRecord;
    };
    const report = () => createReport([record()], { framework, shard: null });

    it('should show them in the terminal, whose only control sequences are its colours', () => {
      const plain = renderTerminal(report(), { color: false, width: 200 });
      expect(acting(plain)).toEqual([]);
      expect(plain).toContain('\\x1b[2J');
      const coloured = renderTerminal(report(), { color: true, width: 200 });
      expect(acting(withoutColours(coloured))).toEqual([]);
    });

    it('should escape the Markdown header as its cells, and show them', () => {
      const text = renderMarkdown(report());
      expect(acting(text)).toEqual([]);
      const header = text.split('\n')[2] as string;
      // Markdown-escaped as a cell is: the backslash of the visible escape too.
      expect(header.startsWith('_vitest\\_\\*\\|\\<b\\>ok\\\\x1b\\[2J')).toBe(true);
      expect(text).not.toContain('<b>');
    });

    it('should escape the HTML header and show them', () => {
      const text = renderHtml(report());
      expect(acting(text)).toEqual([]);
      expect(text).toContain('vitest_*|&#60;b&#62;ok\\x1b[2J');
      expect(text).not.toContain('<b>ok');
    });

    it('should write them in JSON as escapes that read back as the same data', () => {
      const text = renderJson(report());
      expect(acting(text)).toEqual([]);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(report())));
    });
  });
});
