import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { CommandCandidate } from '../../candidates/index.ts';
import type { Backend, RowJob } from '../backend.ts';
import { requirePosix } from './platform.ts';
import { poolFor } from './pool.ts';
import { type PreparedRow, runPrepared } from './schedule.ts';

/** Shell-like rendering of a command for messages. */
export const showCommand = (command: readonly string[]): string =>
  command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');

// Under 'os' a worker reads only the files its command line names by absolute path (its script),
// never their folders: a script at a project's root must not expose the project.
const commandFiles = (command: readonly string[]): string[] =>
  command.slice(1).filter((arg) => isAbsolute(arg) && existsSync(arg));

/**
 * Runs `command` candidates: each executable is started as a pool of long-lived workers speaking
 * the protocol of `docs/protocol.md`, one pool per command line.
 * @internal
 */
export const commandBackend: Backend = {
  isolation: (mode) => mode,
  async run(rows: readonly RowJob[], ctx) {
    requirePosix('Command candidates');
    const prepared: PreparedRow[] = rows.map(({ row, candidate }) => {
      const c = candidate as CommandCandidate;
      const pool = poolFor({
        command: c.command,
        memoryMb: ctx.limits.memoryMb,
        isolation: ctx.isolation,
        readOnly: commandFiles(c.command),
        shareWorkers: c.shareWorkers === true,
        label: `command (${c.language})`,
        fix: `Check that \`${showCommand(c.command)}\` runs on this machine and implements docs/protocol.md (it must write a "hello" line on fd 4 first).`,
      });
      return { row, pool, load: { key: c.id, code: c.code, entry: c.entry }, invalid: ctx.invalidNames(c) };
    });
    await runPrepared(prepared, ctx);
  },
};
