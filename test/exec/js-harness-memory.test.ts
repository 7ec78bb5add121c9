import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type HarnessApi, installHarness, SLOT, SLOT_COUNT } from '../../src/exec/js/harness.ts';
import { standalone } from '../../src/exec/js/worker-source.ts';
import { createCodec } from '../../src/values/index.ts';

// A worker keeps up to 32 contexts for their candidates' next runs. What a context holds after a
// chunk stays in the worker's heap as long as the context does, and every full collection walks
// it again: a chunk's parsed inputs (up to 8,192 of them) must be let go when the chunk ends.

setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const harnessIn = (ctx: vm.Context, sab: SharedArrayBuffer): HarnessApi => {
  const codec = new vm.Script(standalone(createCodec)).runInContext(ctx);
  return new vm.Script(standalone(installHarness)).runInContext(ctx)(codec, sab) as HarnessApi;
};

describe('the sandbox harness', () => {
  it("should hold a chunk's parsed inputs no longer than the chunk", async () => {
    // Arrange: a candidate that keeps a weak reference to each argument it is given.
    const ctx = vm.createContext(Object.create(null), { microtaskMode: 'afterEvaluate' });
    const sab = new SharedArrayBuffer(SLOT_COUNT * 4);
    const progress = new Int32Array(sab);
    const api = harnessIn(ctx, sab);
    api.setCandidate('', 1 << 20, 'f', 'no f');
    const seen: WeakRef<object>[] = [];
    api.setWrapper(() => ({
      named: (xs: number[]) => {
        seen.push(new WeakRef(xs));
        return xs[0];
      },
    }));
    expect(api.load()).toBe('ok');
    const inputs = Array.from({ length: 200 }, (_, i) => [[i, i + 1, i + 2]]);
    const json = inputs.map((x) => JSON.stringify(x));
    api.setInputs(inputs, json);

    // Act: one chunk of 200 calls, its inputs parsed from their JSON text in two runs.
    progress[SLOT.from] = 0;
    progress[SLOT.to] = 200;
    api.setBatch(0, [`[${json.slice(0, 120).join(',')}]`, `[${json.slice(120).join(',')}]`]);
    const report = api.run();
    // A weak reference keeps its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();

    // Assert: every call ran on its own input, across the two runs, and none is held any more.
    expect(report).toBe(`{"n":200,"p":0,"v":[${inputs.map((_, i) => i).join(',')}],"e":[]}`);
    expect(seen).toHaveLength(200);
    expect(seen.filter((r) => r.deref() !== undefined)).toHaveLength(0);
  });
});
