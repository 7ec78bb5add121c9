import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confine, releaseConfined } from '../../src/exec/isolation/index.ts';
import { resolveIsolation } from '../../src/index.ts';
import { holdsFor, processesMarked, processesWhere } from '../helpers/processes.ts';

// The boundary itself, tested from inside: trusted code with full `process`, `fs`, `net` and
// `child_process` access plays a candidate that got past every in-process guard.

const SECRET = 'sk-test-secret';
const ESCAPE = join(import.meta.dirname, '..', 'fixtures', 'isolation', 'escape.mjs');
const PROJECT = join(import.meta.dirname, '..', '..');

// Without bubblewrap the OS tests are skipped, unless CROSSCHECK_ISOLATION=os demands them.
const osAvailable = (() => {
  try {
    return resolveIsolation('os') === 'os';
  } catch (error) {
    if (process.env.CROSSCHECK_ISOLATION === 'os') throw error;
    return false;
  }
})();

interface Attempt {
  ok: boolean;
  error?: string;
}
interface EscapeReport {
  hostPid: number;
  leaks: string[];
  pids: string[];
  reads: Record<string, Attempt>;
  writes: Record<string, Attempt>;
  signalHost: Attempt;
  network: Record<string, Attempt>;
  fills: Record<string, Attempt>;
  uid: number;
  cwd: string;
}

// Starts the confined process and relays its report; the escape learns the host's pid from it.
const HOST_PID = -424242;
// The sandbox's descriptors (its mounts and filter) reach the host at 3, 4, ... and go on to bwrap
// at the same numbers.
const HOST = `
  const { spawnSync } = require('node:child_process');
  const c = JSON.parse(process.argv[1]);
  const args = c.args.map((a) => a.replace('${HOST_PID}', String(process.pid)));
  const fds = c.fds.map((_, i) => 3 + i);
  const r = spawnSync(c.file, args, { env: c.env, cwd: process.argv[2], stdio: ['inherit', 'inherit', 'inherit', ...fds] });
  process.exitCode = r.status ?? 1;
`;

let server: Server;
let port = 0;
let connections = 0;
const previousKey = process.env.OPENAI_API_KEY;
const tag = randomBytes(6).toString('hex');
// Places outside the sandbox's temp dir where an escape would leave a file.
const outsideTargets = [
  join(PROJECT, `escaped-${tag}.txt`),
  join(tmpdir(), `escaped-${tag}.txt`),
  join(homedir(), `escaped-${tag}.txt`),
  join(import.meta.dirname, '..', 'fixtures', 'isolation', `escaped-${tag}.txt`),
];
const hostAddresses = (): string[] => [
  '127.0.0.1',
  ...Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => (a as { address: string }).address),
];

const escapeFrom = async (
  mode: 'os' | 'process',
): Promise<{ report: EscapeReport; workdir: string; script: string }> => {
  const workdir = mkdtempSync(join(tmpdir(), 'crosscheck-boundary-'));
  const inside = join(workdir, 'inside.txt');
  // A copy the process is given read-only, so an overwrite (the control shows one) hurts nothing.
  const script = join(mkdtempSync(join(tmpdir(), 'crosscheck-boundary-script-')), 'escape.mjs');
  copyFileSync(ESCAPE, script);
  const spec = JSON.stringify({
    // Hex, so the secret itself is nowhere in the sandbox's command line.
    secretHex: Buffer.from(SECRET).toString('hex'),
    hostPid: HOST_PID,
    port,
    hosts: hostAddresses(),
    writeTargets: [...outsideTargets, script, inside],
    // Only inside the sandbox: under 'process' these would be the host's own folders.
    fillTargets:
      mode === 'os' ? ['/tmp/fill', '/dev/shm/fill', '/fill', '/dev/fill', join(workdir, 'fill')] : [],
    readTargets: [join(PROJECT, 'package.json'), join(homedir(), '.bashrc'), '/etc/shadow', '/etc/hostname'],
  });
  const confined = confine(
    {
      file: process.execPath,
      args: [script, spec],
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: workdir, TMPDIR: workdir },
      workdir,
      readOnly: [script],
    },
    mode,
  );
  // The host: a process started with the secret in its environment, as a user's test run is.
  const result = await execa(process.execPath, ['-e', HOST, JSON.stringify(confined), workdir], {
    env: { ...process.env, OPENAI_API_KEY: SECRET },
    extendEnv: false,
    reject: false,
    timeout: 150_000,
    stdio: ['ignore', 'pipe', 'pipe', ...(confined.fds as unknown as 3[])],
  });
  releaseConfined(confined);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const report = JSON.parse(String(result.stdout)) as EscapeReport & { hostPid: number };
  return { report, workdir, script };
};

beforeAll(async () => {
  process.env.OPENAI_API_KEY = SECRET;
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = previousKey;
  for (const p of outsideTargets) rmSync(p, { force: true });
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe.skipIf(!osAvailable)("isolation 'os': an escaped candidate", () => {
  it('should not read the host secret, reach the network, write outside its temp dir or see host processes', async () => {
    // Arrange
    const before = connections;
    const original = readFileSync(ESCAPE, 'utf8');

    // Act
    const { report, workdir, script } = await escapeFrom('os');

    // Assert
    expect(report.leaks).toEqual([]);
    // Never kernel uid 0: nobody in its own user namespace, or, when the host is root, an
    // unprivileged uid of its own.
    expect(report.uid).not.toBe(0);
    if (process.getuid?.() !== 0) expect(report.uid).toBe(65534);
    expect(report.cwd).toBe(workdir);
    // Nothing of the host's file system beyond the system and what it was given.
    expect(report.reads[join(PROJECT, 'package.json')]).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(report.reads[join(homedir(), '.bashrc')]).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(report.reads['/etc/shadow']).toMatchObject({ ok: false, error: 'ENOENT' });
    // Writes land only in its own temp dir (the positive control), a tmpfs of the sandbox: nothing
    // of it reaches the host, so no file it made (a setuid one included) outlives it there.
    expect(report.writes[join(workdir, 'inside.txt')]).toEqual({ ok: true });
    expect(existsSync(join(workdir, 'inside.txt'))).toBe(false);
    for (const target of outsideTargets) expect(existsSync(target), target).toBe(false);
    expect(report.writes[script]).toMatchObject({ ok: false, error: 'EROFS' });
    // Its memory-backed folders are capped or read-only: it cannot fill the host's RAM.
    expect(report.fills).toEqual({
      '/tmp/fill': { ok: false, error: 'ENOSPC' },
      '/dev/shm/fill': { ok: false, error: 'ENOSPC' },
      '/fill': { ok: false, error: 'EROFS' },
      '/dev/fill': { ok: false, error: 'EROFS' },
      [join(workdir, 'fill')]: { ok: false, error: 'ENOSPC' },
    });
    expect(readFileSync(script, 'utf8')).toBe(original);
    // No route to the host: neither its loopback nor its addresses.
    for (const [host, attempt] of Object.entries(report.network)) expect(attempt.ok, host).toBe(false);
    expect(connections).toBe(before);
    // Its own PID namespace: the host's processes are not there to read or signal.
    expect(report.pids).not.toContain(String(process.pid));
    expect(report.pids).not.toContain(String(report.hostPid));
    expect(report.pids.length).toBeLessThan(10);
    expect(report.signalHost).toMatchObject({ ok: false, error: 'ESRCH' });
    rmSync(workdir, { recursive: true, force: true });
    rmSync(dirname(script), { recursive: true, force: true });
  });

  it('should die with its parent, sandbox and all', async () => {
    // Arrange: a parent process starts a confined process that would run forever.
    const marker = `crosscheck-orphan-${randomBytes(6).toString('hex')}`;
    const workdir = mkdtempSync(join(tmpdir(), 'crosscheck-boundary-'));
    const confined = confine(
      {
        file: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)', marker],
        env: { PATH: '/usr/bin:/bin' },
        workdir,
      },
      'os',
    );
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process');
         const c = JSON.parse(process.argv[1]);
         spawn(c.file, c.args, { env: c.env, stdio: ['ignore', 'ignore', 'ignore', ...c.fds.map((_, i) => 3 + i)] });
         setInterval(() => {}, 1000);`,
        JSON.stringify(confined),
      ],
      { stdio: ['ignore', 'ignore', 'ignore', ...confined.fds] },
    );
    releaseConfined(confined);
    const running = (): number => processesMarked(marker);
    /** The sandboxed command itself is running: node has replaced bwrap, prlimit and setpriv. */
    const commandRunning = (): boolean =>
      processesWhere((argv) => argv.includes(marker) && /(^|\/)node$/.test(argv[0] ?? '')) > 0;
    // Wait for the command itself, not for bwrap's processes: bwrap's init arms its parent-death
    // signal only during its set-up, after it has forked, and killed before that the sandbox
    // survives its parent. That window is milliseconds on a quiet machine and took seconds in a
    // CI run with five heavy test files on two cores, where counting three marked processes
    // (bwrap, its init, the fork about to become the command) let the test kill inside it.
    expect(await holdsFor(commandRunning, 5, 60_000)).toBe(true);

    // Act
    parent.kill('SIGKILL');

    // Assert
    expect(await holdsFor(() => running() === 0, 20, 60_000)).toBe(true);
    rmSync(workdir, { recursive: true, force: true });
  });
});

describe("isolation 'process': the same escape", () => {
  // The control: the probes above can see a breach, so their silence under 'os' means something.
  it('should reach what only the OS boundary keeps out (defence in depth only)', async () => {
    // Act
    const { report, workdir, script } = await escapeFrom('process');

    // Assert
    expect(report.leaks).toContain(`/proc/${report.hostPid}/environ`);
    expect(report.pids).toContain(String(report.hostPid));
    expect(report.network['127.0.0.1']).toEqual({ ok: true });
    expect(report.reads[join(PROJECT, 'package.json')]).toMatchObject({ ok: true });
    expect(existsSync(outsideTargets[1] as string)).toBe(true);
    expect(readFileSync(script, 'utf8')).toBe('escaped');
    for (const p of outsideTargets) rmSync(p, { force: true });
    rmSync(workdir, { recursive: true, force: true });
    rmSync(dirname(script), { recursive: true, force: true });
  });
});
