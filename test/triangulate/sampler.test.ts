import { describe, expect, it } from 'vitest';
import { toBeTriangulatedBy } from '../../matchers/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { defineTask } from '../../src/task/index.ts';
import {
  PROMPTS,
  transformedSignature,
  triangulate,
  triangulationSampler,
} from '../../src/triangulate/index.ts';
import { context } from '../matchers/context.ts';
import { py } from './helpers.ts';
import { useScriptedLlm } from './scripted-llm.ts';

// F1 under FWD-INV with witnesses from a scripted model on 127.0.0.1: recorded once in
// read-write mode, then replayed in replay-only mode with the server closed.
const L = [
  [1, 1],
  [0, 1],
  [-1, 0],
  [4, 3],
  [4, 4],
];
const task = defineTask({
  name: 'plus',
  signature: '(a: int, b: int) -> int',
  description: 'Return the sum of two integers a and b.',
});
const forward = py(
  {
    P_OK: 'def plus(a, b):\n    return a + b',
    P_BUG: 'def plus(a, b):\n    return a + b + 1 if a == 1 else a + b',
  },
  'plus',
);
const STATEMENT =
  'Given an integer sum_of_two_numbers and an integer b, return the integer a such that a + b equals sum_of_two_numbers.';
const rules = [
  {
    match: { lastUserIncludes: 'snake_case name' },
    reply: 'The output is a sum. <answer>sum_of_two_numbers</answer>',
  },
  { match: { lastUserIncludes: 'swap one input parameter' }, reply: '<answer>a</answer>' },
  { match: { lastUserIncludes: 'Rewrite the problem' }, reply: `<answer>${STATEMENT}</answer>` },
  {
    match: { lastUserIncludes: "Write a Python function 'def plus_inv_a", sample: 0 },
    reply:
      '```python\ndef plus_inv_a(sum_of_two_numbers: int, b: int) -> int:\n    return sum_of_two_numbers - b\n```',
  },
  {
    match: { lastUserIncludes: "Write a Python function 'def plus_inv_a", sample: 1 },
    reply: 'I am not able to write this function.',
  },
  {
    match: { lastUserIncludes: "Write a Python function 'def plus_inv_a", sample: 2 },
    reply: 'def plus_inv_a(sum_of_two_numbers, b):\n    return sum_of_two_numbers - b + 0\n',
  },
];

const llm = useScriptedLlm(rules);

describe('witness sampler through the scripted loopback server', () => {
  it('derives the inverse signature mechanically', () => {
    expect(
      transformedSignature('plus', '(a: int, b: int) -> int', 'fwd-inv', 0, 'sum_of_two_numbers', null)
        .signature,
    ).toBe('def plus_inv_a(sum_of_two_numbers: int, b: int) -> int');
    expect(
      transformedSignature('num_square', '(i: int) -> int', 'fwd-sinv', 0, 'square', false).signature,
    ).toBe('def num_square_sinv_i(square: int) -> tuple[bool, list[int]]');
  });

  it('records once, then replays with the server closed: prompts, plan, witnesses, selection and tokens', async () => {
    const first = await triangulate(task, [forward.P_BUG!, forward.P_OK!], {
      transformation: 'fwd-inv',
      sampler: triangulationSampler(llm.client('read-write')),
      witnessSamples: 2,
      inputs: L,
    });
    const prompts = llm.server.completions().map((r) => r.lastUser);
    // Prompt snapshots: return name, inverted parameter, statement, then program samples 0, 1 (no code), 2.
    expect(prompts).toHaveLength(6);
    expect(prompts[0]).toBe(
      PROMPTS.returnName('def plus(a: int, b: int) -> int', 'Return the sum of two integers a and b.')[0]
        ?.content,
    );
    expect(prompts[0]).toMatchInlineSnapshot(`
      "A programming problem asks for the function def plus(a: int, b: int) -> int.

      Return the sum of two integers a and b.

      Pick a descriptive Python snake_case name for the value this function returns. Reply with the name alone inside <answer></answer>."
    `);
    expect(prompts[1]).toContain(
      'Pick the single parameter whose inverse problem is the most natural and well-posed',
    );
    expect(prompts[2]).toContain(
      'Rewrite the problem so that it asks for the function def plus_inv_a(sum_of_two_numbers: int, b: int) -> int instead.',
    );
    expect(prompts[2]).toContain('3. Leave out all examples.');
    expect(prompts[3]).toMatchInlineSnapshot(`
      "Write a Python function 'def plus_inv_a(sum_of_two_numbers: int, b: int) -> int' that solves the problem below. Write only the function (and any imports or helpers it needs), print nothing, and put the code in one Markdown code block. For an invalid input whose handling the problem does not specify, raise ValueError('Invalid input').

      Given an integer sum_of_two_numbers and an integer b, return the integer a such that a + b equals sum_of_two_numbers."
    `);
    expect(first.plan).toEqual({
      transformation: 'fwd-inv',
      stream: false,
      pointwise: null,
      removeLength: null,
      reduced: null,
      split: null,
      union: null,
      invert: 0,
      invertName: 'a',
      returnName: 'sum_of_two_numbers',
      exhaustive: null,
      problem: {
        role: 'inverse',
        signature: 'def plus_inv_a(sum_of_two_numbers: int, b: int) -> int',
        entry: 'plus_inv_a',
        description: STATEMENT,
        language: 'python',
      },
      enumeration: null,
    });
    expect(first.stages[0]?.right).toEqual(['scripted:plus_inv_a#0', 'scripted:plus_inv_a#2']);
    expect(first.selected?.label).toBe('P_OK');
    expect(first.tokens?.prompt).toBeGreaterThan(0);
    expect(first.tokens?.completion).toBeGreaterThan(0);

    await llm.server.close();
    const before = llm.server.completions().length;
    const replay = await triangulate(task, [forward.P_BUG!, forward.P_OK!], {
      transformation: 'fwd-inv',
      sampler: triangulationSampler(llm.client('replay-only')),
      witnessSamples: 2,
      inputs: L,
    });
    expect(llm.server.completions()).toHaveLength(before);
    expect(replay.plan).toEqual(first.plan);
    expect(replay.stages[0]?.right).toEqual(first.stages[0]?.right);
    expect(replay.selected?.label).toBe('P_OK');
    // Tokens reach the matcher's record, replayed or not.
    const r = await toBeTriangulatedBy.call(context(), task, [forward.P_OK!], {
      transformation: 'fwd-inv',
      sampler: triangulationSampler(llm.client('replay-only')),
      witnessSamples: 2,
      inputs: L,
    });
    expect(r.pass).toBe(true);
    expect(r.record.tokens?.prompt).toBe(replay.tokens?.prompt);
    expect(r.record.data).toMatchObject({ plan: { invertName: 'a', returnName: 'sum_of_two_numbers' } });
  });

  it('a pinned plan asks no decision prompt; a replay miss names the prompt', async () => {
    const pinned = await triangulate(task, [forward.P_OK!], {
      transformation: 'fwd-inv',
      sampler: triangulationSampler(llm.client('read-write')),
      pin: { invert: 'a', returnName: 'sum_of_two_numbers', description: STATEMENT },
      witnessSamples: 1,
      inputs: L,
    });
    expect(llm.server.completions().map((r) => r.lastUser.slice(0, 25))).toEqual([
      "Write a Python function '",
    ]);
    expect(pinned.selected?.label).toBe('P_OK');
    const miss = await triangulate(task, [forward.P_OK!], {
      transformation: 'fwd-inv',
      sampler: triangulationSampler(llm.client('replay-only')),
      pin: { invert: 'a', returnName: 'total' },
      witnessSamples: 1,
      inputs: L,
    }).catch((e) => e);
    expect(isCrosscheckError(miss) && miss.code).toBe('LLM_REPLAY_MISS');
  });
});
