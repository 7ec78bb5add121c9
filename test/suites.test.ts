import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from './reporter/helpers.ts';
import { HEAVY_FILES, LONGEST_FILES, NOT_QUICK, OS_BOUNDARY_FILES, OS_BOUNDARY_ONLY } from './suites.ts';

/**
 * The quick suite (`npm test`) leaves the slow files to the heavy one, but not a module: every
 * folder under src/, and matchers/ and reporter/, is imported by the code of some quick test
 * file (the file itself or a test helper it imports), not only reached through a heavy one.
 */

const posix = (path: string) => path.split(sep).join('/');

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : walk(path);
    return /\.(ts|mts)$/.test(e.name) ? [posix(relative(root, path))] : [];
  });

const testCode = walk(join(root, 'test'));
const quickFiles = testCode.filter(
  (f) => f.endsWith('.test.ts') && !(NOT_QUICK as readonly string[]).includes(f),
);

/** Files a test-side file imports, relative to the root (packages left out). */
const importsOf = (file: string): string[] =>
  ts
    .preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => posix(relative(root, resolve(dirname(join(root, file)), s))));

/** Everything the quick test files import: test helpers are followed, source files are not. */
const quickImports = (): Set<string> => {
  const seen = new Set<string>();
  const queue = [...quickFiles];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    for (const target of importsOf(file)) {
      if (seen.has(target)) continue;
      seen.add(target);
      if (target.startsWith('test/') && !target.startsWith('test/fixtures/') && /\.(ts|mts)$/.test(target)) {
        queue.push(target);
      }
    }
  }
  return seen;
};

const sourceFolders = (): string[] => [
  ...readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `src/${e.name}`),
  'matchers',
  'reporter',
];

describe('the quick and heavy suites', () => {
  it('should import every source folder from a quick test file', () => {
    // Arrange
    const imported = [...quickImports()];
    // Act
    const missing = sourceFolders().filter((folder) => !imported.some((f) => f.startsWith(`${folder}/`)));
    // Assert
    expect(
      missing,
      'source folders no quick test imports: add a quick test, or move one out of NOT_QUICK',
    ).toEqual([]);
  });

  it('should name only test files that exist', () => {
    const named = [...HEAVY_FILES, ...OS_BOUNDARY_FILES, ...LONGEST_FILES];
    expect(named.filter((f) => !existsSync(join(root, f)))).toEqual([]);
  });

  it('should leave to the os-boundary project only files it runs', () => {
    const boundaryOnly = OS_BOUNDARY_ONLY as readonly string[];
    expect(OS_BOUNDARY_FILES.filter((f) => !quickFiles.includes(f)).sort()).toEqual([...boundaryOnly].sort());
    // Left out of the quick suite, they still run in the os-boundary project.
    expect(boundaryOnly.filter((f) => !(OS_BOUNDARY_FILES as readonly string[]).includes(f))).toEqual([]);
  });
});
