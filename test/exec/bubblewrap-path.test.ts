import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BWRAP_ENV, bubblewrapPath } from '../../src/exec/isolation/bubblewrap.ts';

// Every run asks for the bubblewrap executable, so its PATH search is kept between runs. What is
// kept must never outlive what it was found with, and a search that found nothing is not kept.

const saved = { path: process.env.PATH, bwrap: process.env[BWRAP_ENV], cwd: process.cwd() };
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-bwrap-path-'));
  dirs.push(dir);
  return dir;
};
const executable = (path: string): void => {
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
};

afterEach(() => {
  process.env.PATH = saved.path;
  if (saved.bwrap === undefined) delete process.env[BWRAP_ENV];
  else process.env[BWRAP_ENV] = saved.bwrap;
  process.chdir(saved.cwd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('bubblewrapPath', () => {
  it('should find bubblewrap installed after a lookup that found none', () => {
    const dir = scratch();
    delete process.env[BWRAP_ENV];
    process.env.PATH = dir;
    expect(bubblewrapPath()).toBe('bwrap');
    executable(join(dir, 'bwrap'));
    expect(bubblewrapPath()).toBe(join(dir, 'bwrap'));
  });

  it('should look again when PATH or CROSSCHECK_BWRAP changes', () => {
    const [a, b] = [scratch(), scratch()];
    executable(join(a, 'bwrap'));
    executable(join(b, 'bwrap'));
    delete process.env[BWRAP_ENV];
    process.env.PATH = a;
    expect(bubblewrapPath()).toBe(join(a, 'bwrap'));
    process.env.PATH = b;
    expect(bubblewrapPath()).toBe(join(b, 'bwrap'));
    process.env[BWRAP_ENV] = join(a, 'bwrap');
    expect(bubblewrapPath()).toBe(join(a, 'bwrap'));
  });

  it('should resolve a relative CROSSCHECK_BWRAP against the working directory of each lookup', () => {
    const [a, b] = [scratch(), scratch()];
    for (const dir of [a, b]) {
      mkdirSync(join(dir, 'bin'));
      executable(join(dir, 'bin', 'bwrap'));
    }
    process.env[BWRAP_ENV] = './bin/bwrap';
    process.chdir(a);
    expect(bubblewrapPath()).toBe(join(a, 'bin', 'bwrap'));
    process.chdir(b);
    expect(bubblewrapPath()).toBe(join(b, 'bin', 'bwrap'));
  });
});
