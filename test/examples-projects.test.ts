import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball } from './helpers/pack.ts';

/**
 * Every guide in docs/guides, followed as a newcomer would, with its example project in
 * examples/<name>: the guide's shell blocks run verbatim, in order, in one bash session in a
 * fresh directory. That installs the packed tarball into a copy of the example (its other
 * dependencies from npm's cache or the registry: nothing else is reachable), replays the
 * committed LLM cache (CI=true), runs the example's tests and shows the failure output. The
 * example's summary and reports are then checked, so neither a guide nor an example can rot.
 *
 * The one block a test cannot run (git clone from GitHub, then npm ci and npm pack in the clone)
 * is marked `<!-- guide-test: skip ... -->` in each guide; the test stands in for it with a
 * directory `crosscheck/` holding this checkout's examples and the tarball `npm pack` made of it,
 * packed once and shared by every guide.
 */

const ROOT = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-guides-'));
let tarball = '';

/** The ```sh blocks of a guide, in order, without those marked `guide-test: skip`. */
const shellBlocks = (markdown: string): string[] => {
  const blocks: string[] = [];
  const fence = /(<!--\s*guide-test:\s*skip[^>]*-->\s*\n)?```sh\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(fence)) if (m[1] === undefined) blocks.push(m[2] as string);
  return blocks;
};

interface GuideRun {
  readonly exitCode: number | undefined;
  readonly all: string;
  readonly project: string;
}

const runGuide = async (guide: string, project: string): Promise<GuideRun> => {
  const dir = mkdtempSync(join(work, 'user-'));
  mkdirSync(join(dir, 'crosscheck'));
  symlinkSync(join(ROOT, 'examples'), join(dir, 'crosscheck', 'examples'));
  cpSync(tarball, join(dir, 'crosscheck', 'crosscheck-0.1.0.tgz'));
  const script = shellBlocks(readFileSync(join(ROOT, 'docs', 'guides', guide), 'utf8')).join('\n');
  const result = await execa('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: dir,
    all: true,
    reject: false,
    timeout: 600_000,
    env: {
      // CI cleared: the guide's commands say CI=true where they mean it (the LLM cache is then
      // replay-only; elsewhere it would call the model). npm's cache before the registry, no
      // colours, no GitHub job summary.
      CI: '',
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      NO_COLOR: '1',
      GITHUB_STEP_SUMMARY: '',
    },
  });
  return { exitCode: result.exitCode, all: result.all ?? '', project: join(dir, project) };
};

beforeAll(async () => {
  tarball = await packTarball(join(work, 'pack'));
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('guide: generated functions in CI (examples/ci-vitest)', () => {
  let run: GuideRun;
  beforeAll(async () => {
    run = await runGuide('ci-generated-functions.md', 'my-ci-project');
  }, 900_000);

  it('should run every shell block of the guide, installing the tarball', () => {
    expect(run.exitCode, run.all).toBe(0);
    const pkg = JSON.parse(readFileSync(join(run.project, 'package.json'), 'utf8'));
    expect(pkg.devDependencies.crosscheck).toMatch(/^file:.*crosscheck-0\.1\.0\.tgz$/);
  });

  it('should pass the example as CI runs it, replaying the cache with no live call', () => {
    expect(run.all).toContain('Tests  3 passed | 1 skipped (4)');
    expect(run.all).toContain('LLM  10 calls: 0 live, 10 replayed');
    expect(run.all).toContain('(1,710 prompt + 745 completion tokens)');
    expect(run.all).toContain('crosscheck  3 checks · 0 failed · 2 tasks · 1 flagged (vitest)');
    expect(run.all).toMatch(/✓ {2}⚑ {2}to_roman +demo-coder +\.not\.toBeCoherentAcross +4 +12 /);
    expect(run.all).toMatch(/✓ {5}slugify +demo-coder +toBeCoherentAcross +6 +149 .*coherent/);
    expect(existsSync(join(run.project, '.crosscheck', 'report.html'))).toBe(true);
  });

  it('should show the failure output the guide prints, then the non-zero exit', () => {
    expect(run.all).toContain('Received: a disagreement on input 11 of 59');
    expect(run.all).toContain('Witness:  [3400] (shrunk from [3417] in 13 steps)');
    expect(run.all).toContain('demo-coder#2 → "MMMCCCC"');
    expect(run.all).toContain('vitest exited with 1');
  });

  it('should ship a workflow that replays the cache and keeps the report', () => {
    const workflow = readFileSync(join(run.project, '.github', 'workflows', 'crosscheck.yml'), 'utf8');
    expect(workflow).toContain('CROSSCHECK_LLM_CACHE: replay-only');
    expect(workflow).toMatch(/- run: npm test\n/);
    expect(workflow).toMatch(/if: always\(\)[\s\S]*path: \.crosscheck\//);
  });
});

describe('guide: property tests of LLM pipelines (examples/property-pipeline)', () => {
  let run: GuideRun;
  beforeAll(async () => {
    run = await runGuide('property-testing-pipelines.md', 'my-pipeline');
  }, 900_000);

  it('should run every shell block of the guide', () => {
    expect(run.exitCode, run.all).toBe(0);
  });

  it('should pass the example, printing the shrunk counterexample and the classes', () => {
    expect(run.all).toContain('Tests  2 passed (2)');
    expect(run.all).toContain('Counterexample: [["   ",3]]');
    expect(run.all).toContain('Shrunk 3 time(s)');
    expect(run.all).toContain('demo-coder#0, demo-coder#1, demo-coder#3 → "   "');
    expect(run.all).toMatch(
      /✗ {2}truncate +demo-coder +coherenceProperty +8 of 100 +falsified \(3 shrinks\) +42 +7:2:3:4/,
    );
    expect(run.all).toMatch(/✓ {2}truncate +demo-coder +coherenceProperty +100 +held/);
  });

  it('should show the failing test.prop the guide prints', () => {
    expect(run.all).toContain('Caused by: Error: The candidates disagree on ["   ",3]:');
    expect(run.all).toContain('vitest exited with 1');
  });

  it('should pass the pipeline-under-test example, replaying its cache: shrunk inconsistency, self-consistency, review, relation', () => {
    expect(run.all).toContain('Tests  4 passed (4)');
    expect(run.all).toContain(
      'Counterexample: [["Vendor: ACME Corp\\nItems: 0.01\\nDiscount: 0.01\\nCurrency: USD"]]',
    );
    expect(run.all).toContain('extract#2 → {"vendor": "ACME Corp", "total": 0.01, "currency": "USD"}');
  });
});

describe('guide: benchmarking models (examples/benchmark-jest)', () => {
  let run: GuideRun;
  beforeAll(async () => {
    run = await runGuide('benchmarking-models.md', 'my-benchmark');
  }, 900_000);

  it('should run every shell block of the guide', () => {
    expect(run.exitCode, run.all).toBe(0);
  });

  it('should sample from the cache alone, 60 replies and no live call', () => {
    expect(run.all).toMatch(/"live":\{"calls":0,/);
    expect(run.all).toMatch(/"replayed":\{"calls":60,"prompt":9795,"cachedPrompt":0,"completion":2045,/);
  });

  it('should merge the shards of both seeds into complete reports, and render the HTML', () => {
    for (const seed of [1, 2]) {
      const report = JSON.parse(readFileSync(join(run.project, 'results', `seed-${seed}.json`), 'utf8'));
      expect(report.bench.complete).toBe(true);
      expect(report.bench.pairs).toHaveLength(12);
    }
    expect(readFileSync(join(run.project, 'results', 'report.html'), 'utf8')).toContain('<svg');
  });

  it('should pass the Jest 30 ranking checks and show the failing one', () => {
    expect(run.all).toContain('Tests:       1 skipped, 3 passed, 4 total');
    expect(run.all).toContain('Received: ρ = -1');
    expect(run.all).toContain('jest exited with 1');
  });
});
