import { readFileSync } from 'node:fs';
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
      `${option} must be a number, got "lots". Pass e.g. ${option} ${example}.`,
    );
  });
});
