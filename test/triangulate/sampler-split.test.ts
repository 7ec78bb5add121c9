import { describe, expect, it } from 'vitest';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { PROMPTS, triangulate, triangulationSampler } from '../../src/triangulate/index.ts';
import { py } from './helpers.ts';
import { useScriptedLlm } from './scripted-llm.ts';

// SPLIT-SUFFIX, the authors' default for a one-parameter list task: xs = xs_prefix + xs_suffix
// (suffix of length 1), inverted w.r.t. xs_suffix; triangulate runs split-suffix ∘ FWD-INV.
const DESCRIPTION = 'Return the sum of the integers in the non-empty list xs.';
const task = defineTask({ name: 'total', signature: '(xs: list[int]) -> int', description: DESCRIPTION });
// No empty list: its suffix is empty and no inverse can rebuild it from the sum.
const L = [[[1, 2, 3]], [[4]], [[-1, 5]], [[2, 2, 2, 2]]];
const forward = py(
  {
    OK: 'def total(xs):\n    return sum(xs)',
    BUG: 'def total(xs):\n    return sum(xs) + (1 if len(xs) == 2 else 0)',
  },
  'total',
);
const SPLIT =
  'Given two lists of integers xs_prefix and xs_suffix, where xs = xs_prefix + xs_suffix is non-empty, return the sum of the integers in xs.';
const INVERSE =
  'Given an integer sum_of_elements and a list xs_prefix, return a list xs_suffix with one integer such that the sum of xs_prefix + xs_suffix is sum_of_elements.';
const rules = [
  { match: { lastUserIncludes: 'is given in two parts' }, reply: `<answer>${SPLIT}</answer>` },
  { match: { lastUserIncludes: 'snake_case name' }, reply: '<answer>sum_of_elements</answer>' },
  { match: { lastUserIncludes: 'Rewrite the problem' }, reply: `<answer>${INVERSE}</answer>` },
  {
    match: { lastUserIncludes: "Write a Python function 'def total_split_inv_xs_suffix" },
    reply:
      '```python\ndef total_split_inv_xs_suffix(sum_of_elements: int, xs_prefix: list[int]) -> list[int]:\n    return [sum_of_elements - sum(xs_prefix)]\n```',
  },
];

const llm = useScriptedLlm(rules);

describe('witness sampler splitting a list parameter, through the scripted loopback server', () => {
  it('records once, then replays with the server closed: prompts, plan, selection', async () => {
    const options = { transformation: 'fwd-inv' as const, witnessSamples: 1, inputs: L };
    const first = await triangulate(task, [forward.BUG!, forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('read-write')),
    });
    const prompts = llm.server.completions().map((r) => r.lastUser);
    // Not list-to-list: no stream prompt. Split statement, return name, inverse statement, program.
    expect(prompts).toHaveLength(4);
    expect(prompts[0]).toBe(
      PROMPTS.split(
        'def total(xs: list[int]) -> int',
        DESCRIPTION,
        'def total_split(xs_prefix: list[int], xs_suffix: list[int]) -> int',
        'xs',
      )[0]?.content,
    );
    expect(prompts[0]).toContain('When the whole xs is empty, both parts are empty.');
    expect(first.plan).toMatchObject({
      stream: false,
      split: { role: 'split', entry: 'total_split', description: SPLIT },
      invert: 1,
      invertName: 'xs_suffix',
      problem: {
        signature: 'def total_split_inv_xs_suffix(sum_of_elements: int, xs_prefix: list[int]) -> list[int]',
      },
    });
    expect(first.transformation).toBe('fwd-inv(#1) ∘ split-suffix(xs, 1)');
    expect(first.selected?.label).toBe('OK');
    expect(first.candidates.find((c) => c.label === 'BUG')?.score).toBe(0);

    await llm.server.close();
    const replay = await triangulate(task, [forward.BUG!, forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(replay.plan).toEqual(first.plan);
    expect(replay.selected?.label).toBe('OK');
  });

  it('bad input: split pinned on a task without one list parameter', async () => {
    const plus = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int', description: 'a + b' });
    const e = await triangulationSampler(llm.client('read-write'))
      .plan(plus, 'fwd-inv', { split: true })
      .catch((x) => x);
    expect(isCrosscheckError(e) && e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain(
      'pins `split: true` but def plus(a: int, b: int) -> int does not have one list or str parameter',
    );
    expect(llm.server.completions()).toHaveLength(0);
  });
});
