import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../reporter/helpers.ts';
import { anchorOf, describeProblems, documentsOf, findProblems } from './standalone.ts';

/**
 * The README, CONTRIBUTING.md, docs/ and examples/ stand on their own: no pointer to folders
 * beside the maintainers' checkout, no issue numbers, no stale "under way", and every relative
 * link reaches a file (and heading) of the repository.
 */

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository of the given files in a temporary folder. */
const repo = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-docs-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};

describe('the documents of this repository', () => {
  it('scans the README, docs/ and examples/, and not installed packages', () => {
    const files = documentsOf(root);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/reference.md');
    expect(files.some((f) => f.startsWith('examples/ci-vitest/'))).toBe(true);
    expect(files.some((f) => f.includes('node_modules'))).toBe(false);
  });

  it('point nowhere outside the repository, name no issue, and link to files that exist', () => {
    const problems = findProblems(root);
    expect(problems, `\n${describeProblems(problems)}`).toEqual([]);
  });
});

describe('the scan', () => {
  it('finds each kind of problem and names file and line', () => {
    const dir = repo({
      'README.md': [
        '# Title',
        "See `DESIGN.md` in the project's shared folder.",
        'Fixed since issue 18; issues 8 to 10 under way.',
        'Closed by #42.',
        'Data: `npx crosscheck bench --data ../shared/data/humaneval`.',
        'Set CROSSCHECK_DATA to the data.',
        'Read [the guide](docs/missing.md) and [a part](docs/a.md#no-such-heading).',
        'Papers: ../papers/incoherence.md, /work/shared/x.',
      ].join('\n'),
      'docs/a.md': '# A heading\n[back](../README.md) [out](../../elsewhere.md)\n',
      'examples/x.ts': "import { y } from '../../outside/y.ts';\n",
    });
    const found = findProblems(dir).map((p) => `${p.file}:${p.line} ${p.rule}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'README.md:2 the shared folder beside the checkout',
        'README.md:2 a design file outside the repository',
        'README.md:3 an issue number',
        'README.md:3 work said to be in progress',
        'README.md:4 an issue number',
        'README.md:5 the shared folder beside the checkout',
        'README.md:6 the test data variable (contributors only)',
        'README.md:7 a broken link (no such file: docs/missing.md)',
        'README.md:7 a broken link (no heading #no-such-heading in docs/a.md)',
        'README.md:8 the papers outside the repository',
        'README.md:8 an absolute path of one machine',
        'docs/a.md:2 a broken link (leaves the repository: ../../elsewhere.md)',
        'examples/x.ts:1 a path out of the repository (../../outside)',
      ]),
    );
    expect(found.filter((f) => f.startsWith('docs/a.md:2'))).toHaveLength(1);
  });

  it('leaves alone what is fine: candidate labels, a clone beside the project, working links', () => {
    const dir = repo({
      'README.md': [
        '# Set up',
        'Labels read `gpt-4o#0` and `demo-coder#2~2`.',
        'npm install ../crosscheck/crosscheck-0.1.0.tgz',
        'See [set up](#set-up), [the API](docs/a.md#the-api-in-short) and [the site](https://example.org/x).',
      ].join('\n'),
      'docs/a.md': '# The API, in short\n[home](../README.md)\n',
      'CONTRIBUTING.md': 'The test data lives in `../shared/data`, or set CROSSCHECK_DATA.\n',
    });
    expect(describeProblems(findProblems(dir))).toBe('');
  });

  it('spells anchors as GitHub does', () => {
    expect(anchorOf('Semantic triangulation: when incoherence cannot see the bug')).toBe(
      'semantic-triangulation-when-incoherence-cannot-see-the-bug',
    );
    expect(anchorOf('`toRankLike` and its default')).toBe('toranklike-and-its-default');
  });
});
