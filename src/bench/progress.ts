import { neutralizeControls } from '../values/index.ts';
import type { BenchProgress } from './runner.ts';

/**
 * Progress with ETA on stderr, so stdout stays one JSON line. On a terminal one line is redrawn
 * in place; otherwise (CI logs, a pipe) a plain line is printed at most every `everyMs`.
 */

const clock = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0
    ? `${h}h${String(m).padStart(2, '0')}m`
    : m > 0
      ? `${m}m${String(sec).padStart(2, '0')}s`
      : `${sec}s`;
};

/** One progress line: pairs, tasks, calls/s and the ETA from this process's pace. @public */
export const progressLine = (p: BenchProgress): string => {
  const fresh = p.pairsDone - p.pairsResumed;
  const left = p.pairsTotal - p.pairsDone;
  const eta = fresh > 0 ? clock((p.elapsedMs / fresh) * left) : '?';
  const rate = p.elapsedMs > 0 ? Math.round(p.calls / (p.elapsedMs / 1000)) : 0;
  const share = p.pairsTotal === 0 ? 100 : Math.floor((100 * p.pairsDone) / p.pairsTotal);
  return (
    `bench ${share}% · ${p.pairsDone}/${p.pairsTotal} pairs` +
    (p.pairsResumed > 0 ? ` (${p.pairsResumed} resumed)` : '') +
    ` · ${p.tasksDone}/${p.tasksTotal} tasks · ${rate} calls/s · ${clock(p.elapsedMs)} elapsed · ETA ${left === 0 ? '0s' : eta}`
  );
};

/** A progress sink for {@link runBench}'s `onProgress`, and `clear()` before other output. @public */
export const progressReporter = (
  stream: NodeJS.WriteStream = process.stderr,
  everyMs = 10_000,
): { update(p: BenchProgress): void; clear(): void } => {
  const tty = stream.isTTY === true;
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const now = performance.now();
      const finished = p.pairsDone === p.pairsTotal;
      if (tty) {
        if (now - last < 200 && !finished) return;
        stream.write(
          `\r\u001b[2K${neutralizeControls(progressLine(p)).slice(0, (stream.columns ?? 120) - 1)}`,
        );
        shown = true;
      } else {
        if (now - last < everyMs && !finished && last !== 0) return;
        stream.write(`${neutralizeControls(progressLine(p))}\n`);
      }
      last = now;
    },
    clear() {
      if (tty && shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
};
