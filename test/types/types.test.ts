import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/**
 * Type tests: fixtures that use every matcher (and misuse them under `@ts-expect-error`) must
 * type-check with `tsc --noEmit` against each host's types. An unused `@ts-expect-error` is an
 * error too, so misuse that type-checks fails these tests.
 */

const root = resolve(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'fixtures');
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-types-'));

const typecheck = async (name: string, file: string, compilerOptions: Record<string, unknown>) => {
  const project = join(work, `${name}.tsconfig.json`);
  writeFileSync(
    project,
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: {
        noEmit: true,
        typeRoots: [join(root, 'node_modules', '@types')],
        ...compilerOptions,
      },
      include: [join(fixtures, file)],
    }),
  );
  const result = await execa(process.execPath, [tscBin, '-p', project], { reject: false, all: true });
  return { exitCode: result.exitCode, output: result.all ?? '' };
};

describe('matcher types', () => {
  it('should type-check every matcher against Vitest 4 and reject misuse', async () => {
    const { exitCode, output } = await typecheck('vitest4', 'vitest-usage.ts', {});
    expect(output).toBe('');
    expect(exitCode).toBe(0);
  });

  // Vitest 5 declares Matchers<R, T>, Vitest 4 Matchers<T>: its declarations exist only as the
  // built crosscheck/vitest/v5, so test/build/dist.test.ts type-checks them against Vitest 5.

  it('should type-check every matcher against Jest 30 through @jest/globals and reject misuse', async () => {
    const { exitCode, output } = await typecheck('jest-globals', 'jest-globals-usage.ts', {});
    expect(output).toBe('');
    expect(exitCode).toBe(0);
  });

  it('should type-check every matcher against the @types/jest globals and reject misuse', async () => {
    const { exitCode, output } = await typecheck('jest-types', 'jest-types-usage.ts', {
      types: ['node', 'jest'],
    });
    expect(output).toBe('');
    expect(exitCode).toBe(0);
  });

  it('should fail to type-check on exactly the misuse lines when the markers are removed', async () => {
    // Arrange: the Vitest fixture with each @ts-expect-error marker blanked (line numbers kept).
    const lines = readFileSync(join(fixtures, 'vitest-usage.ts'), 'utf8').split('\n');
    const misuseLines = lines.flatMap((line, i) => (line.includes('@ts-expect-error') ? [i + 2] : []));
    const unmarked = lines.map((line) => (line.includes('@ts-expect-error') ? '' : line)).join('\n');
    const file = '.unmarked-vitest-usage.ts';
    writeFileSync(join(fixtures, file), unmarked);
    try {
      // Act
      const { exitCode, output } = await typecheck('unmarked', file, {});
      // Assert
      const errorLines = [
        ...new Set([...output.matchAll(/\((\d+),\d+\): error TS/g)].map((m) => Number(m[1]))),
      ];
      expect(exitCode).not.toBe(0);
      expect(misuseLines.length).toBe(14);
      expect(errorLines).toEqual(misuseLines);
    } finally {
      rmSync(join(fixtures, file), { force: true });
    }
  });
});
