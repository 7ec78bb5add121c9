import { describe, expect, it } from 'vitest';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { triangulate, triangulationSampler } from '../../src/triangulate/index.ts';
import { py } from './helpers.ts';
import { useScriptedLlm } from './scripted-llm.ts';

// The union decomposition (design §5.2, F8's task): pinned per task, as the authors do. The plan
// holds the "NO" and ("YES", t) problems; their programs are composed on the host into witnesses.
const DESCRIPTION = 'If n is a perfect square return ("YES", r) with r * r == n, otherwise return "NO".';
const task = defineTask({
  name: 'sqrt_or_no',
  signature: '(n: int) -> Union[str, tuple[str, int]]',
  description: DESCRIPTION,
});
const L = [[0], [1], [4], [5], [16], [-4], [9]];
const sq = 'import math\ndef sq(n):\n    return n >= 0 and math.isqrt(n) ** 2 == n\n';
const forward = py(
  {
    P_POS: `${sq}def sqrt_or_no(n):\n    return ('YES', math.isqrt(n)) if sq(n) else 'NO'`,
    // A wrong root: the ("YES", t) part rejects it. (A wrong "NO" would not be caught here: the "NO"
    // part lists values within a bound only, a subset, so missing values are angelic under FWD-SINV.)
    P_BAD: `${sq}def sqrt_or_no(n):\n    return ('YES', math.isqrt(n) + 1) if sq(n) else 'NO'`,
  },
  'sqrt_or_no',
);
const NONE = 'Return every integer n in [-100, 100] that is not a perfect square.';
const SOME = 'Given an integer root, return the list of every integer n whose square root is root.';
const rules = [
  { match: { lastUserIncludes: 'snake_case name' }, reply: '<answer>verdict</answer>' },
  { match: { lastUserIncludes: 'returns "NO": every such value' }, reply: `<answer>${NONE}</answer>` },
  { match: { lastUserIncludes: 'returns ("YES", root)' }, reply: `<answer>${SOME}</answer>` },
  {
    match: { lastUserIncludes: "Write a Python function 'def sqrt_or_no_sinv_n_no" },
    reply: `\`\`\`python\n${sq}def sqrt_or_no_sinv_n_no() -> list[int]:\n    return [n for n in range(-100, 101) if not sq(n)]\n\`\`\``,
  },
  {
    match: { lastUserIncludes: "Write a Python function 'def sqrt_or_no_sinv_n_yes" },
    reply: '```python\ndef sqrt_or_no_sinv_n_yes(root: int) -> list[int]:\n    return [root * root]\n```',
  },
];

const llm = useScriptedLlm(rules);

describe('witness sampler with the union decomposition pinned, through the scripted loopback server', () => {
  it('records once, then replays with the server closed: prompts, plan, composed witnesses, selection', async () => {
    const options = {
      transformation: 'fwd-sinv' as const,
      pin: { union: true, unionAnswerName: 'root' },
      witnessSamples: 1,
      inputs: L,
    };
    const first = await triangulate(task, [forward.P_BAD!, forward.P_POS!], {
      ...options,
      sampler: triangulationSampler(llm.client('read-write')),
    });
    const prompts = llm.server.completions().map((r) => r.lastUser);
    // Return name, the "NO" statement, the ("YES", t) statement, one program of each part: no
    // tractable-fibers or whole-inverse statement prompt.
    expect(prompts).toHaveLength(5);
    expect(prompts[1]).toContain('asks for the function def sqrt_or_no_sinv_n_no() -> list[int] instead.');
    expect(prompts[2]).toContain(
      'asks for the function def sqrt_or_no_sinv_n_yes(root: int) -> list[int] instead.',
    );
    expect(first.plan).toMatchObject({
      transformation: 'fwd-sinv',
      exhaustive: null,
      union: {
        answerName: 'root',
        none: { role: 'union-none', entry: 'sqrt_or_no_sinv_n_no', description: NONE },
        some: { role: 'union-some', entry: 'sqrt_or_no_sinv_n_yes', description: SOME },
      },
    });
    expect(first.stages[0]?.right).toEqual([
      'scripted:sqrt_or_no_sinv_n_no#0|scripted:sqrt_or_no_sinv_n_yes#0',
    ]);
    expect(first.selected?.label).toBe('P_POS');
    expect(first.candidates.find((c) => c.label === 'P_BAD')?.score).toBe(0);

    await llm.server.close();
    const replay = await triangulate(task, [forward.P_BAD!, forward.P_POS!], {
      ...options,
      sampler: triangulationSampler(llm.client('replay-only')),
    });
    expect(replay.plan).toEqual(first.plan);
    expect(replay.selected?.label).toBe('P_POS');
  });

  it('bad input: union pinned for FWD-INV or for a return type that is not "NO" | ("YES", t)', async () => {
    const sampler = triangulationSampler(llm.client('read-write'));
    const inv = await sampler.plan(task, 'fwd-inv', { union: true, returnName: 'v' }).catch((e) => e);
    expect(isCrosscheckError(inv) && inv.code).toBe('INVALID_INPUT');
    expect(inv.message).toContain("decomposes a set-valued inverse; use 'fwd-sinv' or 'enum-sinv'");
    const plus = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int', description: 'a + b' });
    const ret = await sampler
      .plan(plus, 'fwd-sinv', { union: true, returnName: 'v', invert: 'a' })
      .catch((e) => e);
    expect(isCrosscheckError(ret) && ret.message).toContain(
      'does not return Union[str, tuple[str, T]] ("NO" or ("YES", t)); pin `union: false`.',
    );
    expect(llm.server.completions()).toHaveLength(0);
  });
});
