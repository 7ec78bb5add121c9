import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crosscheck, root } from '../reporter/helpers.ts';

/** The `crosscheck` command's own flags and its option errors, as a user runs them. */

describe('crosscheck --version', () => {
  it('should print the package version and exit 0', async () => {
    // Arrange
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    // Act
    const result = await crosscheck(['--version']);
    // Assert
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});

describe('crosscheck bench number options', () => {
  it.each([
    ['--n', '1000'],
    ['--timeout-ms', '250'],
    ['--max-output-bytes', '65536'],
    ['--jobs', '2'],
  ])('should suggest the real default of %s when it is not a number', async (option, example) => {
    // Act
    const result = await crosscheck(['bench', '--data', 'anywhere', option, 'lots']);
    // Assert
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `${option} must be a decimal number, got "lots". Pass e.g. ${option} ${example}.`,
    );
  });
});

describe('crosscheck bench option rules', () => {
  it.each([
    [['--m', '0'], '--m must be a positive integer, got 0 (number). Pass e.g. --m 10.'],
    [['--seed', '1.5'], '--seed must be an integer, got 1.5 (number).'],
    [
      ['--timeout-ms', '0'],
      '--timeout-ms must be a positive number of milliseconds, got 0 (number). Pass e.g. --timeout-ms 250.',
    ],
    [
      ['--equality', 'fuzzy'],
      '--equality must be one of "python", "difftrust", "strict", got "fuzzy" (string). Pass e.g. --equality python.',
    ],
  ])(
    'should word the engine rule for %j in flags, with the default as the example',
    async (args, message) => {
      // Arrange
      const data = mkdtempSync(join(tmpdir(), 'cli-rules-'));
      writeFileSync(join(data, 'tasks.jsonl'), '');
      try {
        // Act
        const result = await crosscheck(['bench', '--data', data, ...args]);
        // Assert
        expect(result.exitCode).toBe(2);
        expect(result.stderr).toContain(`crosscheck bench: ${message}`);
        expect(result.stderr).not.toContain('runBench(options)');
      } finally {
        rmSync(data, { recursive: true, force: true });
      }
    },
  );
});

describe('crosscheck flags as typed', () => {
  it.each([
    [['--n', '0x10'], 'crosscheck bench: --n must be a decimal number, got "0x10". Pass e.g. --n 1000.'],
    [
      ['--n', '5', '--n=7'],
      'crosscheck bench: `--n` is given more than once ("5", then "7"); it takes one value. Pass it once.',
    ],
    [
      ['--seed', '-1'],
      'crosscheck bench: the value of `--seed` starts with a dash, which reads as another flag. Write it joined with `=`, e.g. --seed=-1.',
    ],
  ])('should refuse %j with a message that says what to type', async (args, message) => {
    // Act
    const result = await crosscheck(['bench', '--data', 'anywhere', ...args]);
    // Assert
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('should word a bad seed as a flag, with no API syntax', async () => {
    // Arrange
    const data = mkdtempSync(join(tmpdir(), 'cli-seed-'));
    writeFileSync(join(data, 'tasks.jsonl'), '');
    try {
      // Act
      const result = await crosscheck(['bench', '--data', data, '--seed', '1.5']);
      // Assert
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(
        'crosscheck bench: --seed must be an integer, got 1.5 (number). Pass e.g. --seed 1.',
      );
      expect(result.stderr).not.toContain('{ seed');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
