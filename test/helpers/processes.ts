import { readdirSync, readFileSync } from 'node:fs';

/** How many processes other than `except` have a command line (argv) that `match` accepts. */
export const processesWhere = (match: (argv: string[]) => boolean, except?: number): number =>
  readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid) && pid !== String(except))
    .filter((pid) => {
      try {
        return match(readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0'));
      } catch {
        return false;
      }
    }).length;

/** How many processes other than `except` have `marker` somewhere in their command line. */
export const processesMarked = (marker: string, except?: number): number =>
  processesWhere((argv) => argv.some((arg) => arg.includes(marker)), except);

/**
 * True once `done` holds at `hold` looks in a row, 50 ms apart; false after `limitMs` of wall time
 * (a hang guard: on a loaded runner a sandbox takes seconds to start and its processes a while to
 * be reaped). One look is not enough either way: between a fork and the exec that follows it, and
 * during the exec itself, /proc shows a process under its parent's command line or an empty one,
 * so a process can drop out of a count for a moment and come back.
 */
export const holdsFor = async (done: () => boolean, hold: number, limitMs = 120_000): Promise<boolean> => {
  for (let i = 0, held = 0; i * 50 < limitMs; i++) {
    held = done() ? held + 1 : 0;
    if (held >= hold) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};
