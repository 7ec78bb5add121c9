import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from './reporter/helpers.ts';

/**
 * The layout rules of docs/architecture.md, checked on the import lines of every TypeScript file
 * under src/, matchers/ and reporter/. Folders are found, not listed, so a new folder under src/
 * is covered the day it appears:
 * 1. nothing under src/ imports a test framework (vitest, jest);
 * 2. an import that leaves its folder enters the other folder through its index.ts;
 * 3. the folders import each other without cycles (type-only imports count: they still say
 *    which folder needs which);
 * 4. src/contract imports no other folder;
 * 5. the engine (src/) imports nothing from matchers/ or reporter/.
 */

const HOSTS = /^(vitest|jest|@vitest\/|@jest\/|vitest\/|jest-)/;
const TOPS = ['src', 'matchers', 'reporter'] as const;

interface Import {
  readonly from: string;
  readonly specifier: string;
  /** The imported file, relative to the root; null for a package. */
  readonly target: string | null;
}

const sourceFiles = (dir: string): string[] => {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
};

/** Every import, export-from, dynamic import and require of the files under the three roots. */
const importsOf = (base: string): Import[] =>
  TOPS.flatMap((top) => sourceFiles(join(base, top))).flatMap((file) =>
    ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map(({ fileName }) => ({
      from: relative(base, file).split(sep).join('/'),
      specifier: fileName,
      target: fileName.startsWith('.')
        ? relative(base, resolve(dirname(file), fileName))
            .split(sep)
            .join('/')
            .replace(/\.(m|c)?js$/, '.$1ts')
        : null,
    })),
  );

/** The folder a file belongs to: `src/<name>` for the engine, `src` for its top files, else the root. */
const folderOf = (file: string): string => {
  const parts = file.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : 'src';
  return parts[0] as string;
};

/** The broken rules, one line each, empty when the layout holds. */
const layoutViolations = (base: string): string[] => {
  const imports = importsOf(base);
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const a = folderOf(i.from);
    if (i.target === null) {
      if (a.startsWith('src') && HOSTS.test(i.specifier))
        problems.push(`${i.from}: imports the test framework '${i.specifier}' (keep src/ host-free)`);
      continue;
    }
    const b = folderOf(i.target);
    if (a === b) continue;
    if (a.startsWith('src') && !b.startsWith('src'))
      problems.push(`${i.from}: the engine imports ${i.target} from ${b}/`);
    if (b.startsWith('src/') && i.target !== `${b}/index.ts`)
      problems.push(`${i.from}: imports ${i.target}; enter ${b}/ through ${b}/index.ts`);
    if (a === 'src/contract')
      problems.push(`${i.from}: src/contract imports ${i.target}; it must import nothing`);
    if (a.startsWith('src/') && b.startsWith('src/')) {
      const out = edges.get(a) ?? new Set<string>();
      out.add(b);
      edges.set(a, out);
    }
  }
  problems.push(...cyclesOf(edges).map((c) => `folder cycle: ${c.join(' -> ')}`));
  return problems;
};

/** One cycle per strongly connected group of folders (depth-first search for a back edge). */
const cyclesOf = (edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] => {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
};

describe('the layout of the repository', () => {
  it('should keep src/ host-free, folders entered through index.ts, and no folder cycles', () => {
    // Act
    const problems = layoutViolations(root);
    // Assert
    expect(problems).toEqual([]);
  });

  it('should see every folder under src/ (so new ones are covered) and the contract as a leaf', () => {
    // Arrange
    const folders = new Set(importsOf(root).map((i) => folderOf(i.from)));
    const onDisk = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}`);
    // Assert
    for (const folder of onDisk) expect(folders, folder).toContain(folder);
    expect(onDisk).toContain('src/contract');
    const leaving = importsOf(root).filter(
      (i) =>
        folderOf(i.from) === 'src/contract' && i.target !== null && folderOf(i.target) !== 'src/contract',
    );
    expect(leaving).toEqual([]);
  });
});

describe('layoutViolations on a tree that breaks each rule', () => {
  let base: string | undefined;
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true });
    base = undefined;
  });

  const tree = (files: Record<string, string>): string => {
    base = mkdtempSync(join(tmpdir(), 'layout-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    return base;
  };

  it('should name a deep import, a framework import, a cycle, a contract import and an engine-to-host import', () => {
    // Arrange
    const dir = tree({
      'src/contract/index.ts': "import { x } from '../a/index.ts';\nexport const c = x;\n",
      'src/a/index.ts': "export { b } from '../b/index.ts';\nexport const x = 1;\n",
      'src/a/deep.ts': "import { it } from 'vitest';\nimport type { M } from '../../matchers/m.ts';\n",
      'src/b/index.ts': "import { x } from '../a/inner.js';\nexport const b = x;\n",
      'src/newfolder/index.ts': "const m = await import('../b/private.ts');\n",
      'matchers/m.ts': "import { x } from '../src/a/deep.ts';\nexport type M = typeof x;\n",
    });
    // Act
    const problems = layoutViolations(dir);
    // Assert
    expect(problems).toEqual([
      "src/a/deep.ts: imports the test framework 'vitest' (keep src/ host-free)",
      'src/a/deep.ts: the engine imports matchers/m.ts from matchers/',
      'src/b/index.ts: imports src/a/inner.ts; enter src/a/ through src/a/index.ts',
      'src/contract/index.ts: src/contract imports src/a/index.ts; it must import nothing',
      'src/newfolder/index.ts: imports src/b/private.ts; enter src/b/ through src/b/index.ts',
      'matchers/m.ts: imports src/a/deep.ts; enter src/a/ through src/a/index.ts',
      'folder cycle: src/a -> src/b -> src/a',
    ]);
  });

  it('should pass a tree that keeps the rules', () => {
    // Arrange
    const dir = tree({
      'src/contract/index.ts':
        "import type { Arbitrary } from 'fast-check';\nexport type A = Arbitrary<1>;\n",
      'src/a/index.ts': "export { y } from './inner.ts';\nimport type { A } from '../contract/index.ts';\n",
      'src/a/inner.ts': 'export const y = 1;\n',
      'src/b/index.ts': "import { y } from '../a/index.ts';\nexport const b = y;\n",
      'matchers/m.ts': "import { b } from '../src/b/index.ts';\nimport { expect } from 'vitest';\n",
    });
    // Act / Assert
    expect(layoutViolations(dir)).toEqual([]);
  });
});
