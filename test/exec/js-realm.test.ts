import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKER_EXEC_ARGV } from '../../src/exec/js/slot.ts';
import {
  type Candidate,
  candidates,
  closeSandboxPools,
  defineTask,
  type Outcome,
  run,
  type SourceCandidate,
} from '../../src/index.ts';

// A sandbox worker runs many candidates, one vm context each, in one realm of its own. An object
// of that realm in a candidate's hands would let it change the built-ins every later context is
// made with, and so forge the results of the candidates after it, in later runs too.

const task = defineTask({ name: 'f' });
const js = (sources: string[]): Candidate[] =>
  candidates.fromSources(sources, { language: 'javascript', entry: 'f' });
const show = (row: readonly Outcome[] | undefined): unknown[] =>
  (row ?? []).map((o) =>
    o.kind === 'value' ? o.tagged : `${o.kind}:${(o as { name?: string }).name ?? ''}`,
  );

// Module and script readings of this text differ: as a module, `await /…/g` is an awaited regular
// expression; as the script the sandbox runs, `typeof await / grab(import('x')) / g` calls import().
const HIDDEN_IMPORT = `var reason = null;
function grab(p) { p.then(null, (e) => { reason = e; }); return 1; }
typeof await /grab(import('x'))/g;
function f(x) { return reason === null ? x * 2 : -1; }`;

/**
 * A candidate as it would be if a parse had missed its import(): its wrapper is handed to the
 * sandbox as is. Through the rejection of import() it looks for the realm above its context and,
 * if it finds one, replaces that realm's Object.create, which makes every new context's global.
 */
const pastTheChecks = (): Candidate => {
  const [c] = js(['function f(x) { return x; }']);
  const wrapper = `(function (module, exports) {
async function f(x) {
  let reason;
  try { await import('x'); return 'imported'; } catch (e) { reason = e; }
  let p = reason, top = null;
  while (p) { top = p; p = Object.getPrototypeOf(p); }
  if (top === Object.prototype) return 'own realm';
  top.constructor.create = function () { return { Reflect: { apply() { return 'FORGED'; } } }; };
  return 'other realm';
}
return { named: f, exported: module.exports, entry: 'f', byDefault: undefined };
})`;
  return { ...(c as SourceCandidate), prepared: wrapper };
};

afterAll(() => closeSandboxPools());

describe('the JS sandbox worker’s own realm', () => {
  it('should refuse an import() that only a script reading of the source shows, in JS and TS', () => {
    // Act
    const [asJs] = js([HIDDEN_IMPORT]);
    const [asTs] = candidates.fromSources([HIDDEN_IMPORT], { language: 'typescript', entry: 'f' });

    // Assert
    for (const c of [asJs, asTs] as SourceCandidate[]) {
      expect(c?.problem?.name).toBe('CompileError');
      expect(c?.problem?.message).toMatch(/import\(\) and import\.meta are not available/);
    }
  });

  it.each(['process', 'os'] as const)(
    'should keep an import() that reached the sandbox from exposing the worker realm (isolation %s)',
    async (isolation) => {
      // Arrange
      const honest = js(Array.from({ length: 6 }, (_, i) => `function f(x) { return x * 2; } // ${i}`));

      // Act: the attacker alone, then honest candidates in a run of their own.
      const attacked = await run(task, [pastTheChecks()], [[1], [2]], { isolation });
      const after = await run(task, honest, [[1], [2], [3]], { isolation });

      // Assert: the attacker reached no realm but its own (its import() never settles, or
      // rejects with an error of its context), and no later candidate's result was forged.
      for (const outcome of show(attacked.outcomes[0])) expect(outcome).not.toBe('other realm');
      for (const row of after.outcomes) expect(show(row)).toEqual([2, 4, 6]);
    },
    60_000,
  );

  it('should run sandbox workers whose import() hook answers in the candidate’s context', async () => {
    // Arrange: a worker started with the sandbox's options reports what its realm allows.
    const source = `
      const { parentPort } = require('node:worker_threads');
      const vm = require('node:vm');
      const ctx = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
      const ContextError = vm.runInContext('TypeError', ctx);
      const get = new vm.Script("var r; import('x').then(null, (e) => { r = e; }); (() => r)", {
        importModuleDynamically: () => { throw new ContextError('no import'); },
      }).runInContext(ctx);
      setTimeout(() => {
        const r = get();
        parentPort.postMessage({
          contextRealm: r instanceof ContextError,
        });
      }, 100);`;

    // Act
    const report = await new Promise<{ contextRealm: boolean }>((resolve, reject) => {
      const worker = new Worker(source, {
        eval: true,
        execArgv: [...WORKER_EXEC_ARGV],
        env: {},
        stderr: true,
      });
      worker.stderr.resume();
      worker.once('message', (m) => {
        resolve(m);
        void worker.terminate();
      });
      worker.once('error', reject);
    });

    // Assert
    expect(report).toEqual({ contextRealm: true });
  });
});
