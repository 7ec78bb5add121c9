#!/usr/bin/env node
/**
 * Completes package-lock.json with the per-platform optional packages the registry this
 * project is built against does not serve (Biome's and unrs-resolver's binaries for Android,
 * macOS, Windows, ...). npm leaves them out of the lock when their metadata 404s, and `npm ci`
 * then rejects the lock as out of sync. Each entry gets os/cpu/libc from its name, so npm skips
 * it on every other platform and treats it as an optional install where it matches.
 *
 * Usage: node scripts/complete-lockfile.mjs   (after `npm install`, when `npm ci` says "Missing")
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openharmony',
  'win32',
  'sunos',
  'netbsd',
  'openbsd',
  'aix',
];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];

const missing = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lockcheck-'));
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(root, f), join(dir, f));
  try {
    execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: 'pipe',
    });
    return [];
  } catch (error) {
    const text = `${error.stdout}${error.stderr}`;
    return [...text.matchAll(/Missing: (@?[^@\s]+)@(\S*) from lock file/g)].map((m) => m[1]);
  }
};

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const names = missing();
for (const name of names) {
  // Find the parent that lists it, for its version and dev flag.
  const parent = Object.values(lock.packages).find((p) => p.optionalDependencies?.[name]);
  if (!parent) throw new Error(`${name}: no package in the lock lists it as optional`);
  const base = name.split('/').pop();
  const os = OS.find((o) => base.includes(o));
  const cpu = CPU.find((c) => new RegExp(`(^|-)${c}(-|$)`).test(base));
  const entry = { version: parent.optionalDependencies[name], optional: true };
  if (parent.dev) entry.dev = true;
  if (cpu) entry.cpu = [cpu];
  if (os) entry.os = [os];
  if (base.includes('musl')) entry.libc = ['musl'];
  else if (base.includes('gnu') || (os === 'linux' && !base.includes('wasm'))) entry.libc = ['glibc'];
  lock.packages[`node_modules/${name}`] = entry;
}
writeFileSync(join(root, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${names.length} entries; npm ci now reports ${missing().length} missing`);
