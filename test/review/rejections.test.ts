import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { review } from '../../src/review/index.ts';
import { block, CORRECT, client, generatorRules, tempCache } from './helpers.ts';

const clamp = defineTask({
  name: 'clamp',
  signature: '(x: number, lo: number, hi: number) => number',
  description: 'Return x limited to [lo, hi]. Throw a RangeError when lo > hi.',
});
const [candidate] = candidates.fromSources(
  [
    "function clamp(x, lo, hi) {\n  if (lo > hi) throw new RangeError('lo > hi');\n  return Math.max(lo, Math.min(x, hi));\n}",
  ],
  { language: 'javascript', entry: 'clamp' },
);

describe('judgeRejections (extension)', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(async () => {
    cache = tempCache();
    server = await startScriptedLlmServer({
      rules: generatorRules(
        ['empty range'],
        { S1: { inputs: block(['[5, 3, 1]']), repairs: [block(['[5, 4, 2]']), block(['[0, 9, 1]'])] } },
        () => CORRECT('The specification demands a RangeError.'),
      ),
    });
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });
  afterAll(() => closeSandboxPools());

  it('should treat a deliberate rejection as invalid by default (the paper), skipping the scenario', async () => {
    const r = await review(clamp, candidate!, { llm: client(server.url, cache.dir), scenarios: 1 });
    expect(r.scenarios[0]?.status).toBe('skipped');
    expect(r.scenarios[0]?.lastErrors).toEqual(['[0, 9, 1]: invalid input (RangeError: lo > hi)']);
    expect(r.extensions).toEqual([]);
  });

  it('should judge the rejection as the output when judgeRejections is on, and say so', async () => {
    const r = await review(clamp, candidate!, {
      llm: client(server.url, cache.dir),
      scenarios: 1,
      judgeRejections: true,
    });
    expect(r.scenarios[0]?.inputs.map((i) => [i.input, i.output, i.verdict])).toEqual([
      ['[5, 3, 1]', 'raised RangeError: lo > hi', 'CORRECT'],
    ]);
    expect(r.extensions).toEqual(['judgeRejections']);
    expect(r.verdict).toBe('accept');
  });
});
