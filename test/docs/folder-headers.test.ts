import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../reporter/helpers.ts';

/**
 * Each folder says what it is for where a reader enters it: its `index.ts` (the one way in, see
 * docs/architecture.md) opens with a TSDoc block marked `@packageDocumentation` of at least two
 * lines of prose. The tag is what tells a folder's comment from the comment of its first export
 * (a block about one type, left at the top when the imports above it were moved). Folders are
 * found on disk, so a new one is covered the day it appears; a subfolder with its own `index.ts`
 * (src/exec/js) is held to it too. Entries without an `index.ts` (the
 * CLI's `main.ts`, the host and reporter entries) are held to the same rule.
 */

/** Folders whose way in is another file: the `crosscheck` command starts at main.ts. */
const OTHER_ENTRIES: Readonly<Record<string, string>> = { 'src/cli': 'src/cli/main.ts' };

/** The package's entries that are not folder indexes: the hosts and reporters. */
const HOST_ENTRIES = ['matchers/vitest.ts', 'matchers/jest.ts', 'reporter/vitest.ts', 'reporter/jest.ts'];

const posix = (path: string) => path.split(sep).join('/');

/** The top folders of the engine (src/ itself and each folder under it) and matchers/. */
const topFolders = (): string[] => [
  'src',
  ...readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `src/${e.name}`),
  'matchers',
];

/** Every index.ts below the top folders: a subfolder with one is entered through it too. */
const nestedIndexes = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return nestedIndexes(path);
    return e.name === 'index.ts' ? [posix(relative(root, path))] : [];
  });

/** The file a folder is entered through. */
const entryOf = (folder: string): string => OTHER_ENTRIES[folder] ?? `${folder}/index.ts`;

/**
 * What is wrong with a file's opening comment, or null. The prose is the block's text without
 * `@` tags, code samples and blank lines.
 */
const headerProblem = (text: string): string | null => {
  const body = text.replace(/^#!.*\n/, '');
  const block = /^\/\*\*([\s\S]*?)\*\//.exec(body);
  if (!block) return 'does not open with a /** … */ comment';
  const lines = (block[1] as string).split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trimEnd());
  if (!lines.some((l) => /@packageDocumentation\b/.test(l))) {
    return 'its opening comment has no @packageDocumentation (is it about one export rather than the folder?)';
  }
  let fenced = false;
  const prose = lines.filter((l) => {
    if (/^\s*```/.test(l)) fenced = !fenced;
    return !fenced && !/^\s*```/.test(l) && !/^\s*@/.test(l) && l.trim() !== '';
  });
  if (prose.length < 2)
    return `its opening comment says what the folder is for in ${prose.length} line(s); write 2 or 3`;
  return null;
};

describe('folder headers', () => {
  const folders = topFolders();
  const entries = [
    ...new Set([...folders.map(entryOf), ...nestedIndexes(join(root, 'src')), ...HOST_ENTRIES]),
  ];

  it('every folder of src/ and matchers/ has its way in', () => {
    expect(folders).toContain('src/exec');
    expect(entries).toContain('src/exec/js/index.ts');
    const missing = folders.map(entryOf).filter((f) => !existsSync(join(root, f)));
    expect(missing, 'folders without an index.ts').toEqual([]);
  });

  it('every way in opens with two or more lines on what the folder is for', () => {
    const problems = entries
      .filter((f) => existsSync(join(root, f)))
      .map((f) => [f, headerProblem(readFileSync(join(root, f), 'utf8'))] as const)
      .filter(([, problem]) => problem !== null)
      .map(([f, problem]) => `${f}: ${problem}`);
    expect(problems, `\n${problems.join('\n')}`).toEqual([]);
  });

  it('tells a comment about one export from one about the folder', () => {
    expect(headerProblem("import x from 'y';\n")).toMatch(/does not open/);
    expect(
      headerProblem('/** A review record: score, verdict and inputs. @public */\nexport interface R {}'),
    ).toMatch(/no @packageDocumentation/);
    expect(headerProblem('/**\n * Tasks.\n * @packageDocumentation\n */\n')).toMatch(/in 1 line/);
    expect(
      headerProblem(
        '#!/usr/bin/env node\n/**\n * The command.\n * It parses flags.\n * @packageDocumentation\n */\n',
      ),
    ).toBeNull();
  });
});
