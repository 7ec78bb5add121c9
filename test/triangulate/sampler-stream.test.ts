import { describe, expect, it } from 'vitest';
import { toBeTriangulatedBy } from '../../matchers/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { PROMPTS, triangulate, triangulationSampler } from '../../src/triangulate/index.ts';
import { context } from '../matchers/context.ts';
import { py } from './helpers.ts';
import { useScriptedLlm } from './scripted-llm.ts';

// STREAM decided by the sampler: a list-to-list task is asked whether it is stream processing; on
// Yes the plan holds the pointwise problem and the inverse is of that problem. Recorded once, then
// replayed with the server closed.
const DESCRIPTION = 'Return the list of the doubles of the elements of xs, in order.';
const task = defineTask({
  name: 'double_all',
  signature: '(xs: list[int]) -> list[int]',
  description: DESCRIPTION,
});
const L = [[[1, 2, 3]], [[0]], [[-4, 5]], [[]]];
const forward = py(
  {
    OK: 'def double_all(xs):\n    return [2 * x for x in xs]',
    // Right on one-element lists (so its pointwise view triangulates), wrong on longer ones.
    HEAD: 'def double_all(xs):\n    return [2 * x for x in xs[:1]] + xs[1:]',
  },
  'double_all',
);
const POINTWISE = 'Given an integer element, return twice its value.';
const INVERSE = 'Given an integer doubled_element, return the integer element whose double it is.';
const rules = [
  { match: { lastUserIncludes: 'same operation to each element' }, reply: '<answer>Yes</answer>' },
  {
    match: { lastUserIncludes: 'treats each list element on its own' },
    reply: `<answer>${POINTWISE}</answer>`,
  },
  { match: { lastUserIncludes: 'snake_case name' }, reply: '<answer>doubled_element</answer>' },
  { match: { lastUserIncludes: 'Rewrite the problem' }, reply: `<answer>${INVERSE}</answer>` },
  {
    match: { lastUserIncludes: "Write a Python function 'def double_all_pointwise_inv_element" },
    reply:
      '```python\ndef double_all_pointwise_inv_element(doubled_element: int) -> int:\n    return doubled_element // 2\n```',
  },
];

const llm = useScriptedLlm(rules);

const PLAN = {
  transformation: 'fwd-inv',
  stream: true,
  pointwise: {
    role: 'pointwise',
    signature: 'def double_all_pointwise(element: int) -> int',
    entry: 'double_all_pointwise',
    description: POINTWISE,
    language: 'python',
  },
  removeLength: null,
  reduced: null,
  split: null,
  union: null,
  invert: 0,
  invertName: 'element',
  returnName: 'doubled_element',
  exhaustive: null,
  problem: {
    role: 'inverse',
    signature: 'def double_all_pointwise_inv_element(doubled_element: int) -> int',
    entry: 'double_all_pointwise_inv_element',
    description: INVERSE,
    language: 'python',
  },
  enumeration: null,
};

describe('witness sampler deciding STREAM, through the scripted loopback server', () => {
  it('records once, then replays with the server closed: prompts, plan, selection and tokens', async () => {
    const options = { transformation: 'fwd-inv' as const, witnessSamples: 1, inputs: L };
    const first = await triangulate(task, [forward.HEAD!, forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('read-write')),
    });
    const prompts = llm.server.completions().map((r) => r.lastUser);
    // Stream?, pointwise statement, return name (of the pointwise problem), inverse statement, program.
    expect(prompts).toHaveLength(5);
    expect(prompts[0]).toBe(
      PROMPTS.stream('def double_all(xs: list[int]) -> list[int]', DESCRIPTION)[0]?.content,
    );
    expect(prompts[0]).toMatchInlineSnapshot(`
      "A programming problem asks for the function def double_all(xs: list[int]) -> list[int].

      Return the list of the doubles of the elements of xs, in order.

      Does this function apply one and the same operation to each element of its input list on its own, so that each output element depends only on the input element at the same position? Reply <answer>Yes</answer> or <answer>No</answer>."
    `);
    expect(prompts[1]).toMatchInlineSnapshot(`
      "A programming problem asks for the function def double_all(xs: list[int]) -> list[int].

      Return the list of the doubles of the elements of xs, in order.

      The function treats each list element on its own. Rewrite the problem so that it asks for the function def double_all_pointwise(element: int) -> int instead, which gets one element and returns what the original function puts at that element's position.
      Rules:
      0. Change the original problem as little as possible.
      1. Keep every constraint of the original that applies to a single element.
      2. The new problem must stand on its own and never mention the original function.
      3. Leave out all examples.
      Reply with the new problem statement inside <answer></answer>."
    `);
    expect(prompts[2]).toContain('asks for the function def double_all_pointwise(element: int) -> int.');
    expect(prompts[3]).toContain('Given an integer element, return twice its value.');
    expect(first.plan).toEqual(PLAN);
    expect(first.transformation).toBe('fwd-inv(#0) ∘ stream');
    expect(first.selected?.label).toBe('OK');
    expect(first.candidates.find((c) => c.label === 'HEAD')?.score).toBe(0);

    await llm.server.close();
    const before = llm.server.completions().length;
    const replay = await triangulate(task, [forward.HEAD!, forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(llm.server.completions()).toHaveLength(before);
    expect(replay.plan).toEqual(PLAN);
    expect(replay.selected?.label).toBe('OK');
    const r = await toBeTriangulatedBy.call(context(), task, [forward.OK!], {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(r.pass).toBe(true);
    expect(r.record.tokens?.prompt).toBe(replay.tokens?.prompt);
    expect(r.record.data).toMatchObject({ plan: { stream: true, pointwise: { description: POINTWISE } } });
  });

  it('pinning stream: false (and split: false) asks no prompt and inverts the list itself', async () => {
    const plan = await triangulationSampler(llm.client('read-write')).plan(task, 'fwd-inv', {
      stream: false,
      split: false,
      returnName: 'doubled',
      description: 'Given doubled, return xs.',
    });
    expect(llm.server.completions()).toHaveLength(0);
    expect(plan.stream).toBe(false);
    expect(plan.pointwise).toBeNull();
    expect(plan.problem.signature).toBe('def double_all_inv_xs(doubled: list[int]) -> list[int]');
  });

  it('bad input: stream pinned on a signature that is not list-to-list; stream with enum-sinv', async () => {
    const sampler = triangulationSampler(llm.client('read-write'));
    const plus = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int', description: 'a + b' });
    const e1 = await sampler.plan(plus, 'fwd-inv', { stream: true }).catch((e) => e);
    expect(isCrosscheckError(e1) && e1.code).toBe('INVALID_INPUT');
    expect(e1.message).toContain(
      'pins `stream: true` but def plus(a: int, b: int) -> int does not map one list to a list',
    );
    const e2 = await sampler.plan(task, 'enum-sinv', { stream: true }).catch((e) => e);
    expect(isCrosscheckError(e2) && e2.code).toBe('INVALID_OPTION');
    expect(e2.message).toContain('pin `stream: false`');
    expect(llm.server.completions()).toHaveLength(0);
  });
});
