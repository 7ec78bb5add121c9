import { describe, expect, it } from 'vitest';
import {
  type CrosscheckRecord,
  createReport,
  rankingRecord,
  renderHtml,
  renderMarkdown,
  renderTerminal,
  renderWritten,
} from '../../src/report/index.ts';
import { coherence, suiteRecords } from './records.ts';

const ESC = String.fromCharCode(27);
const report = () => createReport(suiteRecords(), { framework: 'vitest', shard: null });

describe('renderTerminal', () => {
  it('should render rows, suite figures and the model ranking without colour', () => {
    // Act
    const text = renderTerminal(report(), { color: false, width: 120 });
    // Assert
    expect(text).toMatchInlineSnapshot(`
      "
         crosscheck  10 checks · 2 failed · 3 tasks (9 task × model pairs) · 2 pairs flagged (vitest)

              task  model  check                   m    n  Î ± ε          error          PAC         classes  time
        ✓     max   alpha  toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.000 ± 0.100  —           3        12ms
        ✓     max   beta   toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.000 ± 0.100  —           3        12ms
        ✗  ⚑  max   gamma  toHaveIncoherenceBelow  3  100  0.200 ± 0.100  0.600 ± 0.100  —           2+2      12ms
        ✓     sum   alpha  toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.000 ± 0.100  —           3        12ms
        ✓  ⚑  sum   beta   toHaveIncoherenceBelow  3  100  0.400 ± 0.100  0.300 ± 0.100  —           2+1      12ms
        ✓     sum   gamma  toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.500 ± 0.100  —           3        12ms
        ✗  ⚑  max   gamma  toBeCoherentAcross      2   59  —              —              incoherent  —        3ms
        ✓     sort  alpha  toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.000 ± 0.100  —           3        12ms
        ✓     sort  beta   toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.000 ± 0.100  —           3        12ms
        ✓     sort  gamma  toHaveIncoherenceBelow  3  100  0.000 ± 0.100  0.000 ± 0.100  —           3        12ms
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates disagree) · m candidates · n inputs · Î ± ε incoherence ± half-width
          · PAC detection verdict · classes sizes of groups of identical candidates

        Suite  mean Î 0.067 over 9 task points · mean error lower bound 0.022 over 9 checks
          isolation os (bubblewrap sandbox)
          8 statistical claims at confidence 0.950 each; at least one may be false with probability up to 0.400 (union bound,
          Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each check then runs at δ / checks
        With references (9 task × model pairs)  mean error 0.156 · detection rate 67% · false positives 0
          undetected mean error 0.071 · Spearman(error, Î) 0.71 (strong, n = 9)

        Models (rank 1 = best)
        model  coherent    rank  correct     rank  mean Î  mean error
        alpha  3/3 (100%)     1  3/3 (100%)     1   0.000       0.000
        beta   2/3 (67%)    2.5  2/3 (67%)      2   0.133       0.100
        gamma  2/3 (67%)    2.5  1/3 (33%)      3   0.067       0.367
        Spearman(coherent share, correct share)  0.87 (n = 3, too few points to judge: fewer than 5)

        Ranking with uncertainty
        95% intervals: two-stage bootstrap over 3 tasks and the candidates within each (1000 resamples, seed 0); rank intervals and groups from simultaneous pairwise intervals (max-t) on the tasks each pair shares, so the chance of any false separation is at most 5%.

        ranked by mean incoherence (lower is better):
        rank [interval]  group  model  mean incoherence [interval]  detection rate [interval]  seed-stable
        1 [1–3]          1      alpha  0.000 [0.000, 0.842]         —                          100%
        2 [1–3]          1      gamma  0.067 [0.000, 0.353]         0.500 [0.013, 0.987]       100%
        3 [1–3]          1      beta   0.133 [0.000, 0.704]         1.000 [0.025, 1.000]       100%
        groups that cannot be told apart: {alpha, gamma, beta}
        not comparable: alpha–beta (3 shared tasks), alpha–gamma (3 shared tasks), gamma–beta (3 shared tasks); a pair is compared only on the tasks both models were measured on, and separating at 95% takes at least 6 of them
        seed stability: 100% of input redraws reproduce the whole order

        ranked by mean error (lower is better):
        rank [interval]  group  model  mean error [interval]  detection rate [interval]  seed-stable
        1 [1–3]          1      alpha  0.000 [0.000, 0.842]   —                          100%
        2 [1–3]          1      beta   0.100 [0.000, 0.528]   1.000 [0.025, 1.000]       100%
        3 [1–3]          1      gamma  0.367 [0.000, 1.000]   0.500 [0.013, 0.987]       100%
        groups that cannot be told apart: {alpha, beta, gamma}
        not comparable: alpha–beta (3 shared tasks), alpha–gamma (3 shared tasks), beta–gamma (3 shared tasks); a pair is compared only on the tasks both models were measured on, and separating at 95% takes at least 6 of them
        seed stability: 100% of input redraws reproduce the whole order

        agreement of the incoherence and error rankings (Spearman): ρ = 0.866 [-1.000, 1.000] on the shares of tasks with error 0 and incoherence 0; ρ = 0.500 [-1.000, 1.000] on the mean figures

        Uncertainty (the intervals) says how far the figures and the order could move with other tasks and other candidates from the same models; seed stability only says how often new inputs on these same tasks and candidates reproduce the order, so a ranking can be perfectly seed-stable and still not be told apart.
      "
    `);
  });

  it('should fit a narrow terminal by stacking rows, never cutting what identifies them', () => {
    // Arrange
    const records = [coherence({ task: 'a-task-with-a-very-long-name', model: 'alpha', incoherence: 0.25 })];
    // Act
    const text = renderTerminal(createReport(records, { framework: 'jest', shard: null }), {
      color: false,
      width: 50,
    });
    // Assert
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(50);
    expect(text).toMatchInlineSnapshot(`
      "
         crosscheck  1 check · 0 failed · 1 task
          1 flagged (jest)

            task · model · check
        ✓ ⚑ a-task-with-a-very-long-name · alpha
            toHaveIncoherenceBelow
              m 3 · n 100 · Î ± ε 0.250 ± 0.100
              error ≥ 0.075 · PAC — · classes 3
              time 12ms
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates
          disagree) · m candidates · n inputs · Î ± ε
          incoherence ± half-width · PAC detection
          verdict · classes sizes of groups of identical
          candidates

        Suite  mean Î 0.250 over 1 task point
          mean error lower bound 0.075 over 1 check
          isolation os (bubblewrap sandbox)
          1 statistical claim at confidence 0.950 each;
          at least one may be false with probability up
          to 0.050 (union bound, Σδ). For a suite-wide
          δ, set configureSuite({ delta, checks }) once:
          each check then runs at δ / checks

        Models (rank 1 = best)
        model  coherent  rank  correct  rank  mean error
        alpha  0/1 (0%)     1  —           —           —
        Spearman(coherent share, correct share)
          — (undefined, n = 0)
      "
    `);
  });

  it('should colour only when asked', () => {
    // Act
    const plain = renderTerminal(report(), { color: false });
    const coloured = renderTerminal(report(), { color: true });
    // Assert
    expect(plain).not.toContain(ESC);
    expect(coloured).toContain(`${ESC}[31m✗`);
    expect(coloured.replace(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '')).toBe(plain);
  });

  it('should say so when the run wrote no records', () => {
    // Act
    const text = renderTerminal(createReport([], { framework: 'vitest', shard: null }), { color: false });
    // Assert
    expect(text).toBe(
      '   crosscheck  0 checks · 0 failed · 0 tasks · 0 flagged (vitest)\n  No crosscheck records in this run.\n',
    );
  });
});

describe('renderWritten', () => {
  it('should list the files relative to the working directory, and absolute outside it', () => {
    // Act
    const text = renderWritten(
      ['/work/app/.crosscheck/report.json', '/work/app/.crosscheck/report.html', '/tmp/report.md'],
      { color: false, width: 100 },
      '/work/app',
    );
    // Assert
    expect(text).toBe('  Reports  .crosscheck/report.json · .crosscheck/report.html · /tmp/report.md\n');
  });

  it('should wrap at the width without splitting a path', () => {
    // Act
    const text = renderWritten(['/a/report.json', '/a/report.html'], { color: false, width: 40 }, '/a/b');
    // Assert
    expect(text).toBe('  Reports  /a/report.json\n    /a/report.html\n');
  });
});

describe('renderMarkdown', () => {
  it('should render the figures, checks and models as GitHub tables', () => {
    // Act
    const md = renderMarkdown(
      createReport(suiteRecords().slice(3, 5), { framework: 'jest', shard: { count: 3, indexes: [1, 3] } }),
    );
    // Assert
    expect(md).toMatchInlineSnapshot(`
      "## crosscheck report

      _jest, shards 1, 3 of 3_

      > **Incomplete:** shards 2 are missing.

      - **2** checks: 2 passed, 0 failed; **2** tasks, **1** flagged (candidates disagreed on some input)
      - mean incoherence Î 0.200 over 2 task points (per task, the share of candidate pairs that disagree on an input; flags count tasks with any disagreement, so a few disagreeing inputs flag a task whose mean stays near 0); mean error lower bound 0.075 over 2 checks (inconclusive checks count in no mean)
      - isolation: os (bubblewrap sandbox)
      - 2 statistical claims at confidence 0.950 each; at least one may be false with probability up to 0.100 (union bound, Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each check then runs at δ / checks

      With references (2 tasks):

      | mean error | mean incoherence | Spearman (error, Î) | detection rate | false positives | undetected mean error |
      | --- | --- | --- | --- | --- | --- |
      | 0.150 | 0.200 | 1.00 (n = 2, too few points to judge: fewer than 5) | 100% | 0 | 0.000 |

      ### Checks

      |  | task | model | check | m | n | Î ± ε | error | PAC | ρ | classes | seed |
      | --- | --- | --- | --- | ---: | ---: | --- | --- | --- | ---: | --- | ---: |
      | ✓ | max | beta | toHaveIncoherenceBelow | 3 | 100 | 0.000 ± 0.100 | 0.000 ± 0.100 | — | — | 3 | 1 |
      | ✓ ⚑ | sum | beta | toHaveIncoherenceBelow | 3 | 100 | 0.400 ± 0.100 | 0.300 ± 0.100 | — | — | 2+1 | 1 |

      <details open><summary>Legend</summary>

      - **✓ passed / ✗ failed**: Whether the check’s assertion held. A failed check is either refuted by its figures or inconclusive.
      - **inconclusive**: The evidence supported no verdict (too many timeouts or crashes, too few inputs): the check fails both ways and its figures enter no mean.
      - **⚑ flagged**: Candidates gave different outputs on at least one input, so at least one of them is wrong. No reference is needed; a check can pass (incoherence under its bound) and still be flagged.
      - **m**: Candidates compared (programs sampled for the same task).
      - **n**: Inputs each candidate ran on.
      - **Î ± ε**: Incoherence: the share of (candidate pair, input) draws on which two candidates disagree, ± ε, the half-width of its confidence interval (the interval holds with probability 1 − δ).
      - **error**: Share of candidate outputs that differ from the reference (when the task has one). “≥ x” is the lower bound E ≥ (Î − ε)/2, which needs no reference.
      - **δ**: The chance a stated interval or certificate is wrong. Each passing check makes its claim at its own δ; the suite line adds them up (Σδ).
      - **PAC**: A detection check’s verdict: coherent (N inputs without a disagreement, a certificate that incoherence is below ε), incoherent (a witness input was found), inconclusive.
      - **ρ**: Spearman’s rank correlation of a ranking check (1 = same order, −1 = reversed).
      - **classes**: Sizes of the groups of candidates that behaved identically on every input (2+1: two agree, one differs).
      - **result**: A grounded review’s verdict, its score (share of the judge’s CORRECT verdicts) against τ and the inputs judged; a triangulation’s selected program with its support and witnesses, or its abstention.
      - **unknown**: Candidate cells that timed out or crashed, per candidate.
      - **seed**: Seed of the input generator: rerunning with it draws the same inputs.

      </details>

      ### Models

      | model | coherent tasks | rank | correct tasks | rank | mean Î | mean error |
      | --- | --- | ---: | --- | ---: | ---: | ---: |
      | beta | 1/2 (50%) | 1 | 1/2 (50%) | 1 | 0.200 | 0.150 |

      Spearman (coherent share, correct share): — (undefined, n = 1). Rank 1 is best.

      <details open><summary>Legend</summary>

      - **coherent tasks**: Tasks on which the model’s candidates never disagreed, of the tasks it was checked on.
      - **correct tasks**: Tasks with error 0 (every candidate output matched the reference), of the tasks that had a reference.
      - **rank**: Place by the share in the column to its left (1 = highest share, best); tied models share the mean of their places.
      - **mean Î**: The model’s incoherence averaged over its tasks.
      - **mean error**: The model’s error against the reference averaged over its tasks with one.

      </details>
      "
    `);
  });

  it('should escape table syntax in names', () => {
    // Act
    const md = renderMarkdown(
      createReport([coherence({ task: 'a|b*c', model: 'x', incoherence: 0 })], {
        framework: 'vitest',
        shard: null,
      }),
    );
    // Assert
    expect(md).toContain('| a\\|b\\*c | x |');
  });
});

describe('renderHtml', () => {
  it('should be one self-contained page with the three plots', () => {
    // Act
    const html = renderHtml(report());
    // Assert
    // The three plots, and a forest plot per ranking (incoherence, error).
    expect(html.match(/<svg /g)).toHaveLength(5);
    expect(html).toContain('I = 2E');
    // One inline script (the checks table) and its data; nothing loaded from anywhere.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toMatch(/<link|src=|url\(/);
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:/);
  });

  it('should escape names', () => {
    // Act
    const html = renderHtml(
      createReport(
        [coherence({ task: '<img src=x onerror=alert(1)>', model: '"m"', incoherence: 0.1, error: 0.2 })],
        {
          framework: 'vitest',
          shard: null,
        },
      ),
    );
    // Assert
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('should explain a plot it cannot draw', () => {
    // Act
    const html = renderHtml(
      createReport([coherence({ task: 'sum', incoherence: 0 })], { framework: 'vitest', shard: null }),
    );
    // Assert
    expect(html).toContain(
      'Error vs incoherence per task: no task has both an incoherence estimate and a reference',
    );
    expect(html).toContain(
      'Model ranking: error vs incoherence: needs models (the `model` tag) with references',
    );
  });
});

describe('reports keep the evidence', () => {
  const witness = {
    reason: 'candidates disagree' as const,
    input: '[[101]]',
    original: '[[160,189]]',
    shrinkSteps: 3,
    outputs: [
      { labels: ['a#0', 'a#1'], kind: 'value', outcome: '101' },
      { labels: ['a#2'], kind: 'value', outcome: '100' },
    ],
    reference: '101',
  };
  const records = (): CrosscheckRecord[] => [
    {
      ...coherence({ task: 'sum', model: 'a', incoherence: 0.3, error: 0.2, pass: false }),
      seed: 9,
      witness,
    },
    coherence({ task: 'sum', model: 'b', incoherence: 0, error: 0 }),
    coherence({ task: 'max', model: 'a', incoherence: 0, error: 0 }),
    coherence({ task: 'max', model: 'b', incoherence: 0, error: 0 }),
    rankingRecord(
      { spearman: 0.8, minSpearman: 0.5, items: ['a', 'b'], received: [1, 2], expected: [1, 2] },
      { test: { file: 'r.spec.ts', name: 'ranks', matcher: 'toRankLike', negated: false }, pass: true },
    ),
  ];

  it('should give the Markdown the witness, the seed, ρ and distinct tasks', () => {
    // Act
    const md = renderMarkdown(createReport(records(), { framework: 'vitest', shard: null }));
    // Assert
    expect(md).toContain('**2** tasks (4 task × model pairs), **1** pair flagged');
    expect(md).toContain('### Witnesses');
    expect(md).toContain(
      '- ✗ sum (a), toHaveIncoherenceBelow, seed 9: input `[[101]]` (candidates disagree)',
    );
    expect(md).toContain('  - a#2 → `100`');
    expect(md).toContain('  - reference → `101`');
    expect(md).toMatch(/\| toRankLike \|[^\n]*\| 0\.80 \|/);
  });

  it('should count 3 tasks done by 2 models as 3 tasks in every format (issue 15: the demo said 6)', () => {
    // Arrange: the demo's shape, 3 tasks × 2 models, one pair flagged.
    const pairs = ['median', 'toRoman', 'wordCount'].flatMap((task) =>
      ['model-a', 'model-b'].map((model) =>
        coherence({ task, model, incoherence: task === 'median' && model === 'model-b' ? 0.4 : 0, error: 0 }),
      ),
    );
    const report = createReport(pairs, { framework: 'vitest', shard: null });
    // Act
    const terminal = renderTerminal(report, { color: false, width: 140 });
    const md = renderMarkdown(report);
    const html = renderHtml(report);
    // Assert
    expect(report.summary.suite).toMatchObject({ tasks: 6, distinctTasks: 3, flaggedTasks: 1 });
    expect(terminal).toContain('6 checks · 0 failed · 3 tasks (6 task × model pairs) · 1 pair flagged');
    expect(terminal).not.toMatch(/\b6 tasks\b/);
    expect(md).toContain('**3** tasks (6 task × model pairs), **1** pair flagged');
    expect(html).toContain('3</b><span>tasks (6 task × model pairs)');
    expect(html).toContain('1</b><span>flagged task × model pair: candidates disagreed on some input<');
  });

  it('should give the HTML table the witness, the seed and ρ as data', () => {
    const html = renderHtml(createReport(records(), { framework: 'vitest', shard: null }));
    expect(html).toContain('2</b><span>tasks (4 task × model pairs)');
    const data = JSON.parse(
      /<script type="application\/json" id="checks-data">([\s\S]*?)<\/script>/.exec(html)![1]!,
    );
    const failed = data.find((r: { v: string }) => r.v === 'fail');
    expect(failed).toMatchObject({ t: 'sum', mo: 'a', s: 9, w: { input: '[[101]]', reference: '101' } });
    expect(data.find((r: { c: string }) => r.c === 'toRankLike')).toMatchObject({ r: 0.8 });
  });
});

describe('legends and keys', () => {
  it('should put the legend with its terms above the HTML checks table and under the Models table', () => {
    // Act
    const html = renderHtml(report());
    // Assert
    const legend = /<details open id="legend"[^>]*>([\s\S]*?)<\/details>/.exec(html)?.[1] ?? '';
    for (const term of [
      '✓ passed / ✗ failed',
      'inconclusive',
      '⚑ flagged',
      'm',
      'n',
      'Î ± ε',
      'error',
      'PAC',
    ])
      expect(legend).toContain(`<dt>${term}</dt>`);
    expect(legend).toContain('Candidates gave different outputs on at least one input');
    expect(html.indexOf('id="legend"')).toBeLessThan(html.indexOf('id="checks"'));
    const models = /<details open id="models-legend"[^>]*>([\s\S]*?)<\/details>/.exec(html)?.[1] ?? '';
    for (const term of ['coherent tasks', 'correct tasks', 'rank', 'mean Î', 'mean error'])
      expect(models).toContain(`<dt>${term}</dt>`);
  });

  it('should explain the Models columns under the Markdown Models table', () => {
    // Act
    const md = renderMarkdown(report());
    // Assert
    const models = md.slice(md.indexOf('### Models'));
    expect(models).toContain('- **coherent tasks**: Tasks on which the model’s candidates never disagreed');
    expect(models).toContain('- **correct tasks**: Tasks with error 0');
  });

  it('should name PAC and classes in the terminal key, and result only when that column shows', () => {
    // Act
    const text = renderTerminal(report(), { color: false, width: 400 });
    // Assert
    const key = text.split('\n').find((l) => l.trim().startsWith('key:')) ?? '';
    expect(key).toContain('PAC detection verdict');
    expect(key).toContain('classes sizes of groups of identical candidates');
    expect(key).not.toContain('result');
  });

  it('should show a tiny positive mean incoherence as "< 0.001" in every format, never as 0.000', () => {
    // Arrange: one disagreement in 5000 draws on one task, none on the other: mean 0.0001.
    const tiny = createReport(
      [
        coherence({ task: 'sum', model: 'a', incoherence: 0.0002 }),
        coherence({ task: 'max', model: 'a', incoherence: 0 }),
      ],
      { framework: 'vitest', shard: null },
    );
    // Act
    const terminal = renderTerminal(tiny, { color: false, width: 120 });
    const md = renderMarkdown(tiny);
    const html = renderHtml(tiny);
    // Assert
    expect(terminal).toContain('mean Î < 0.001');
    expect(md).toContain('mean incoherence Î < 0.001');
    expect(html).toContain('<b>&#60; 0.001</b><span>mean incoherence Î');
    expect(html).not.toContain('<b>0.000</b><span>mean incoherence');
  });
});

describe('LLM calls per check', () => {
  const totals = (calls: number, prompt: number, completion: number, costUsd: number | null) => ({
    calls,
    prompt,
    completion,
    costUsd,
    unpricedCalls: costUsd === null ? calls : 0,
    unreportedCalls: 0,
    retries: 0,
  });
  /** A pool of two pipeline samples whose outputs a judge compared, with `checked` labelled pairs. */
  const judged = (task: string, agreement: number | null, checked: number): CrosscheckRecord => ({
    ...coherence({ task, model: 'pipe', incoherence: 0.1 }),
    llm: {
      calls: [],
      truncated: 0,
      live: totals(0, 0, 0, null),
      replayed: totals(5, 1500, 60, 0.0031),
      unpriced: [],
      candidates: [
        { label: 'total#0', calls: 2, prompt: 600, completion: 20, costUsd: 0.0012 },
        { label: 'total#1', calls: 2, prompt: 600, completion: 25, costUsd: null },
      ],
      equivalence: {
        judge: 'judge-4o',
        pairs: 3,
        equivalent: 2,
        different: 1,
        garbage: 0,
        failed: 0,
        undecided: 0,
        agreement,
        checked,
      },
    },
  });
  const llmReport = () =>
    createReport([judged('sum', 0.9, 10), judged('max', null, 0)], { framework: 'vitest', shard: null });

  it('should give each pipeline sample its calls, tokens and cost in the Markdown check details', () => {
    // Act
    const md = renderMarkdown(llmReport());
    // Assert
    const details = md.slice(md.indexOf('### LLM calls per check'));
    expect(details).toContain('- ✓ sum (pipe), toHaveIncoherenceBelow: 1,560 tok · $0.0031');
    expect(details).toContain('  - total#0: 2 calls · 600 prompt + 20 completion tokens · $0.0012');
    expect(details).toContain('  - total#1: 2 calls · 600 prompt + 25 completion tokens · unpriced');
  });

  it('should give each pipeline sample its calls, tokens and cost in the HTML row detail', () => {
    // Act
    const html = renderHtml(llmReport());
    // Assert
    const data = JSON.parse(
      /<script type="application\/json" id="checks-data">([\s\S]*?)<\/script>/.exec(html)![1]!,
    );
    expect(data.find((r: { t: string }) => r.t === 'sum').lc).toEqual([
      { label: 'total#0', text: '2 calls · 600 prompt + 20 completion tokens · $0.0012' },
      { label: 'total#1', text: '2 calls · 600 prompt + 25 completion tokens · unpriced' },
    ]);
    // The expanded row prints each sample's line (the script reads `lc`).
    expect(html).toContain("r.lc.forEach(function(c){add('LLM '+c.label,c.text);})");
  });

  it('should say which model judged equality and its agreement on labelled pairs, in every format', () => {
    // Arrange
    const r = llmReport();
    // Act
    const terminal = renderTerminal(r, { color: false, width: 160 });
    const md = renderMarkdown(r);
    const html = renderHtml(r);
    // Assert
    expect(terminal).toContain(
      'sum · pipe · toHaveIncoherenceBelow: equality judged by judge-4o: agreement 90% on 10 labelled pairs',
    );
    expect(terminal).toContain(
      'max · pipe · toHaveIncoherenceBelow: equality judged by judge-4o: no labelled pairs',
    );
    expect(md).toContain('; equality judged by judge-4o: agreement 90% on 10 labelled pairs');
    expect(md).toContain('; equality judged by judge-4o: no labelled pairs');
    const data = JSON.parse(
      /<script type="application\/json" id="checks-data">([\s\S]*?)<\/script>/.exec(html)![1]!,
    );
    expect(data.map((row: { t: string; eq: string }) => [row.t, row.eq])).toEqual([
      ['max', 'equality judged by judge-4o: no labelled pairs'],
      ['sum', 'equality judged by judge-4o: agreement 90% on 10 labelled pairs'],
    ]);
  });

  it('should print no judge line for a check whose equality no model decided', () => {
    // Act
    const terminal = renderTerminal(report(), { color: false, width: 160 });
    const md = renderMarkdown(report());
    // Assert
    expect(terminal).not.toContain('equality judged by');
    expect(md).not.toContain('### LLM calls per check');
  });
});
