import type { Backend } from './backend.ts';

/** Placeholder for a runner that is not built yet: every call becomes an explicit error outcome. */
export const unavailableBackend = (what: string): Backend => ({
  async run(rows, ctx) {
    for (const { row } of rows) {
      for (let i = 0; i < ctx.inputCount; i++) {
        ctx.record(row, i, {
          kind: 'error',
          name: 'RunnerUnavailable',
          message: `no ${what} runner is available`,
        });
      }
    }
  },
});
