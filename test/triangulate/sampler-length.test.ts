import { describe, expect, it } from 'vitest';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { PROMPTS, triangulate, triangulationSampler } from '../../src/triangulate/index.ts';
import { py } from './helpers.ts';
import { useScriptedLlm } from './scripted-llm.ts';

// The length-parameter decision (design §5.2): n is the length of xs, so the plan drops n, the
// later decisions are about shift_all_nolen(xs, k), and triangulate runs remove-length ∘ FWD-INV.
// No empty list in L: there k is not recoverable, and the bijective FWD-INV would (rightly) fail.
const DESCRIPTION =
  'Given n, a list xs of n integers and an integer k, return xs with k added to every element.';
const task = defineTask({
  name: 'shift_all',
  signature: '(n: int, xs: list[int], k: int) -> list[int]',
  description: DESCRIPTION,
});
const L = [
  [3, [1, 2, 3], 2],
  [2, [4, -1], -3],
  [1, [7], 0],
];
const forward = py(
  {
    OK: 'def shift_all(n, xs, k):\n    return [x + k for x in xs[:n]]',
    BUG: 'def shift_all(n, xs, k):\n    return [x + k + (1 if k == 2 else 0) for x in xs]',
  },
  'shift_all',
);
const REDUCED = 'Given a list xs of integers and an integer k, return xs with k added to every element.';
const INVERSE =
  'Given a list shifted and a list xs of integers, return an integer k such that adding k to every element of xs gives shifted.';
const rules = [
  { match: { lastUserIncludes: 'always the length of one of' }, reply: '<answer>(n, xs)</answer>' },
  { match: { lastUserIncludes: 'without the parameter n' }, reply: `<answer>${REDUCED}</answer>` },
  { match: { lastUserIncludes: 'snake_case name' }, reply: '<answer>shifted</answer>' },
  { match: { lastUserIncludes: 'swap one input parameter' }, reply: '<answer>k</answer>' },
  { match: { lastUserIncludes: 'Rewrite the problem' }, reply: `<answer>${INVERSE}</answer>` },
  {
    match: { lastUserIncludes: "Write a Python function 'def shift_all_nolen_inv_k" },
    reply:
      '```python\ndef shift_all_nolen_inv_k(shifted: list[int], xs: list[int]) -> int:\n    return shifted[0] - xs[0] if xs else 0\n```',
  },
];

const llm = useScriptedLlm(rules);

describe('witness sampler deciding the length parameter, through the scripted loopback server', () => {
  it('records once, then replays with the server closed: prompts, plan, selection', async () => {
    const options = { transformation: 'fwd-inv' as const, witnessSamples: 1, inputs: L };
    const first = await triangulate(task, [forward.BUG!, forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('read-write')),
    });
    const prompts = llm.server.completions().map((r) => r.lastUser);
    // Length?, reduced statement, return name, inverted parameter, inverse statement, program.
    expect(prompts).toHaveLength(6);
    const full = 'def shift_all(n: int, xs: list[int], k: int) -> list[int]';
    expect(prompts[0]).toBe(PROMPTS.length(full, DESCRIPTION)[0]?.content);
    expect(prompts[1]).toContain(
      'Rewrite the problem so that it asks for the function def shift_all_nolen(xs: list[int], k: int) -> list[int] instead, without the parameter n',
    );
    expect(prompts[3]).toContain('def shift_all_nolen(xs: list[int], k: int) -> list[int].');
    expect(first.plan).toMatchObject({
      removeLength: { length: 'n', of: 'xs' },
      reduced: { role: 'length-removed', entry: 'shift_all_nolen', description: REDUCED },
      invert: 1,
      invertName: 'k',
      problem: { signature: 'def shift_all_nolen_inv_k(shifted: list[int], xs: list[int]) -> int' },
    });
    expect(first.transformation).toBe('fwd-inv(#1) ∘ remove-length(n = len(xs))');
    expect(first.selected?.label).toBe('OK');
    expect(first.candidates.find((c) => c.label === 'BUG')?.score).toBe(0);

    await llm.server.close();
    const replay = await triangulate(task, [forward.BUG!, forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(replay.plan).toEqual(first.plan);
    expect(replay.selected?.label).toBe('OK');
    expect(replay.tokens?.prompt).toBe(first.tokens?.prompt);
  });

  it('bad input: a removeLength pin that names no int/list pair', async () => {
    const sampler = triangulationSampler(llm.client('read-write'));
    const e = await sampler
      .plan(task, 'fwd-inv', { removeLength: { length: 'xs', of: 'n' } })
      .catch((x) => x);
    expect(isCrosscheckError(e) && e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain(
      '`length` must name an int parameter and `of` a list or str parameter; fix the pin',
    );
    const none = await sampler
      .plan(task, 'fwd-inv', { removeLength: null, invert: 'k', returnName: 'shifted', description: INVERSE })
      .catch((x) => x);
    expect(none.problem.signature).toBe(
      'def shift_all_inv_k(shifted: list[int], n: int, xs: list[int]) -> int',
    );
    expect(llm.server.completions()).toHaveLength(0);
  });
});
