import { describe, expect, it } from 'vitest';
import { toBeTriangulatedBy } from '../../matchers/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { defineTask } from '../../src/task/index.ts';
import {
  enumerationSignature,
  PROMPTS,
  tri,
  triangulate,
  triangulationSampler,
} from '../../src/triangulate/index.ts';
import { context } from '../matchers/context.ts';
import { py } from './helpers.ts';
import { useScriptedLlm } from './scripted-llm.ts';

// F6 (smaller(i): "strictly smaller than i, by at most 2", inexact) under the ENUM-SINV cascade with
// the set-valued inverses AND the answer enumerators sampled from a scripted model on 127.0.0.1:
// recorded once in read-write mode, then replayed in replay-only mode with the server closed.
const L = [[-1], [0], [1], [2], [7], [-10]];
const DESCRIPTION = 'Return an integer that is strictly smaller than i, by at most 2.';
const task = defineTask({ name: 'smaller', signature: '(i: int) -> int', description: DESCRIPTION });
const forward = py(
  {
    i: 'def smaller(i):\n    return i',
    'i-1': 'def smaller(i):\n    return i - 1',
    'i-3': 'def smaller(i):\n    return i - 3',
  },
  'smaller',
);
const SINV =
  'Given an integer smaller_number, return the list of every integer i such that smaller_number is strictly smaller than i, by at most 2.';
const ENUM =
  'Given an integer i, return the list of every integer that is strictly smaller than i, by at most 2.';
const rules = [
  { match: { lastUserIncludes: 'snake_case name' }, reply: '<answer>smaller_number</answer>' },
  { match: { lastUserIncludes: 'small enough to list' }, reply: 'Two values at most. <answer>Yes</answer>' },
  {
    match: { lastUserIncludes: 'asks for the function def smaller_enum' },
    reply: `<answer>${ENUM}</answer>`,
  },
  { match: { lastUserIncludes: 'Rewrite the problem' }, reply: `<answer>${SINV}</answer>` },
  {
    match: { lastUserIncludes: "Write a Python function 'def smaller_sinv_i", sample: 0 },
    reply:
      '```python\ndef smaller_sinv_i(smaller_number: int) -> list[int]:\n    return [smaller_number + 1, smaller_number + 2]\n```',
  },
  {
    match: { lastUserIncludes: "Write a Python function 'def smaller_sinv_i", sample: 1 },
    reply:
      '```python\ndef smaller_sinv_i(smaller_number):\n    return sorted({smaller_number + 2, smaller_number + 1})\n```',
  },
  {
    match: { lastUserIncludes: "Write a Python function 'def smaller_enum", sample: 0 },
    reply: '```python\ndef smaller_enum(i: int) -> list[int]:\n    return [i - 1, i - 2]\n```',
  },
  {
    match: { lastUserIncludes: "Write a Python function 'def smaller_enum", sample: 1 },
    reply: 'An enumeration is not possible here.',
  },
  {
    // Misses i - 2: stage 1 (bijective) rejects it against the complete set-valued inverse.
    match: { lastUserIncludes: "Write a Python function 'def smaller_enum", sample: 2 },
    reply: '```python\ndef smaller_enum(i):\n    return [i - 1]\n```',
  },
];

const llm = useScriptedLlm(rules);

const PLAN = {
  transformation: 'enum-sinv',
  stream: false,
  pointwise: null,
  removeLength: null,
  reduced: null,
  split: null,
  union: null,
  invert: 0,
  invertName: 'i',
  returnName: 'smaller_number',
  exhaustive: true,
  problem: {
    role: 'set-valued-inverse',
    signature: 'def smaller_sinv_i(smaller_number: int) -> list[int]',
    entry: 'smaller_sinv_i',
    description: SINV,
    language: 'python',
  },
  enumeration: {
    role: 'enumeration',
    signature: 'def smaller_enum(i: int) -> list[int]',
    entry: 'smaller_enum',
    description: ENUM,
    language: 'python',
  },
};

describe('witness sampler, ENUM-SINV (with its FWD-ENUM stage), through the scripted loopback server', () => {
  it('derives the enumeration signature mechanically', () => {
    expect(enumerationSignature('smaller', '(i: int) -> int').signature).toBe(
      'def smaller_enum(i: int) -> list[int]',
    );
    expect(enumerationSignature('pick', '(xs: list[int], k: int) -> tuple[int, int]')).toEqual({
      entry: 'pick_enum',
      signature: 'def pick_enum(xs: list[int], k: int) -> list[tuple[int, int]]',
    });
  });

  it('records once, then replays with the server closed: prompts, plan, both program pools, selection and tokens', async () => {
    const options = {
      transformation: 'enum-sinv' as const,
      witnessSamples: 2,
      inputs: L,
    };
    const first = await triangulate(task, Object.values(forward), {
      ...options,
      sampler: triangulationSampler(llm.client('read-write')),
    });
    const prompts = llm.server.completions().map((r) => r.lastUser);
    // Return name, tractable fibers, inverse statement, enumeration statement (one parameter: no
    // inversion prompt); then inverse samples 0, 1 and enumerator samples 0, 1 (no code), 2.
    expect(prompts).toHaveLength(9);
    expect(prompts.slice(0, 4).map((p) => p.split('\n').at(-1)?.slice(0, 40))).toEqual([
      'Pick a descriptive Python snake_case nam',
      'Fix the output and every input except i.',
      'Reply with the new problem statement ins',
      'Reply with the new problem statement ins',
    ]);
    expect(prompts[3]).toBe(
      PROMPTS.enumeration(
        'def smaller(i: int) -> int',
        DESCRIPTION,
        'def smaller_enum(i: int) -> list[int]',
      )[0]?.content,
    );
    expect(prompts[3]).toMatchInlineSnapshot(`
      "A programming problem asks for the function def smaller(i: int) -> int.

      Return an integer that is strictly smaller than i, by at most 2.

      Rewrite the problem so that it asks for the function def smaller_enum(i: int) -> list[int] instead. It must return every output that the problem accepts as correct for the given inputs, each once: list them all, and do not narrow the problem by an interpretation of your own where it allows several outputs. The returned values must have exactly the types of the signature.
      Rules:
      0. Change the original problem as little as possible.
      1. Keep every constraint of the original.
      2. The new problem must stand on its own and never mention the original function.
      3. Leave out all examples.
      Reply with the new problem statement inside <answer></answer>."
    `);
    expect(first.plan).toEqual(PLAN);
    expect(first.stages.map((s) => s.right)).toMatchInlineSnapshot(`
      [
        [
          "scripted:smaller_sinv_i#0",
          "scripted:smaller_sinv_i#1",
        ],
        [
          "scripted:smaller_enum#0",
        ],
      ]
    `);
    // Stage 1 (ENUM-SINV) checked both sampled enumerators; only the complete one reaches stage 2 (FWD-ENUM).
    expect(first.stages[0]?.left).toEqual(['scripted:smaller_enum#0', 'scripted:smaller_enum#2']);
    expect(first.stages[1]?.name).toMatch(/enum/i);
    expect(first.selected?.label).toBe('i-1');
    expect(first.tokens?.prompt).toBeGreaterThan(0);
    expect(first.tokens?.completion).toBeGreaterThan(0);

    await llm.server.close();
    const before = llm.server.completions().length;
    const replay = await triangulate(task, Object.values(forward), {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(llm.server.completions()).toHaveLength(before);
    expect(replay.plan).toEqual(PLAN);
    expect(replay.stages.map((s) => s.right)).toEqual(first.stages.map((s) => s.right));
    expect(replay.selected?.label).toBe('i-1');
    const r = await toBeTriangulatedBy.call(context(), task, [forward['i-1']!], {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(r.pass).toBe(true);
    expect(r.record.tokens?.prompt).toBe(replay.tokens?.prompt);
    expect(r.record.data).toMatchObject({
      plan: { transformation: 'enum-sinv', enumeration: { entry: 'smaller_enum', description: ENUM } },
    });
  });

  it('a pinned plan asks no decision or statement prompt', async () => {
    const pinned = await triangulate(task, Object.values(forward), {
      transformation: 'enum-sinv',
      sampler: triangulationSampler(llm.client('read-write')),
      pin: {
        returnName: 'smaller_number',
        exhaustive: true,
        description: SINV,
        enumerationDescription: ENUM,
      },
      witnessSamples: 1,
      inputs: L,
    });
    expect(llm.server.completions().map((r) => r.lastUser.slice(0, 48))).toEqual([
      "Write a Python function 'def smaller_sinv_i(smal",
      "Write a Python function 'def smaller_enum(i: int",
    ]);
    expect(pinned.plan).toEqual(PLAN);
    expect(pinned.selected?.label).toBe('i-1');
  });

  it('bad input: a pin naming a missing argument, an unsupported transformation', async () => {
    const plus = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int', description: 'a + b' });
    const sampler = triangulationSampler(llm.client('read-write'));
    const missing = await sampler
      .plan(plus, 'enum-sinv', { invert: 'c', returnName: 'total' })
      .catch((e) => e);
    expect(isCrosscheckError(missing) && missing.code).toBe('INVALID_INPUT');
    expect(missing.message).toContain(
      'pins `invert` to "c", which names no parameter of def plus(a: int, b: int) -> int; pin one of "a" (0), "b" (1).',
    );
    const byIndex = await sampler.plan(plus, 'fwd-sinv', { invert: 5, returnName: 'total' }).catch((e) => e);
    expect(isCrosscheckError(byIndex) && byIndex.message).toContain('pins `invert` to 5');
    const kind = await sampler.plan(plus, 'stream' as never).catch((e) => e);
    expect(isCrosscheckError(kind) && kind.code).toBe('INVALID_OPTION');
    expect(kind.message).toContain("cannot plan \"stream\"; it plans 'fwd-inv', 'fwd-sinv' and 'enum-sinv'");
    const viaTriangulate = await triangulate(task, [forward.i!], {
      transformation: tri.stream(tri.fwdSinv()),
      sampler,
      inputs: L,
    }).catch((e) => e);
    expect(isCrosscheckError(viaTriangulate) && viaTriangulate.code).toBe('INVALID_OPTION');
    expect(viaTriangulate.message).toContain(
      "a `sampler` plans 'fwd-inv', 'fwd-sinv' and 'enum-sinv' only, got fwd-sinv(#0) ∘ stream; pass `witnesses`",
    );
    // No request reached the model for any of these.
    expect(llm.server.completions()).toHaveLength(0);
  });
});
