import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions, fromSources } from '../../src/candidates/index.ts';
import { CrosscheckError } from '../../src/errors/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { codeT } from '../../src/triangulate/index.ts';

afterAll(() => closePythonWorkers());

// CodeT (design §1.7, "p agrees with test t iff t runs without error"; RANSAC over the sets of tests
// passed, score = |tests passed| × |programs passing exactly that set|). Hand-checked:
//   P_BUG (a + b, plus 1 when a == 3) passes T1, T3          → group of 1, score 2 × 1 = 2
//   P_MUL (a * b) passes T3 only (0 * 0 == 0)                  → score 1 × 1 = 1
//   P_OK and P_OK2 (two sources of a + b) pass T1, T2, T3      → group of 2, score 3 × 2 = 6
//   T_WRONG (plus(2, 2) == 5) passes for none; T_HOSTILE raises for all.
// So CodeT selects P_OK (index 2, the first with the top score) with score 6.
const task = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int' });

describe('CodeT baseline (python)', () => {
  const forward = fromSources(
    [
      { label: 'P_BUG', source: 'def plus(a, b):\n    return a + b + (1 if a == 3 else 0)' },
      { label: 'P_MUL', source: 'def plus(a, b):\n    return a * b' },
      { label: 'P_OK', source: 'def plus(a, b):\n    return a + b' },
      { label: 'P_OK2', source: 'def plus(a, b):\n    return b + a' },
    ],
    { language: 'python', entry: 'plus' },
  );
  const test = (label: string, body: string) =>
    fromSources([{ label, source: `def test_${label}():\n    ${body}` }], {
      language: 'python',
      entry: `test_${label}`,
    })[0]!;
  const tests = [
    test('T1', 'assert plus(1, 2) == 3'),
    test('T2', 'assert plus(3, 4) == 7'),
    test('T3', 'assert plus(0, 0) == 0'),
    test('T_WRONG', 'assert plus(2, 2) == 5'),
    test('T_HOSTILE', "raise RuntimeError('a test that always fails')"),
  ];

  it('selects the largest group passing the most tests, with the hand-computed score', async () => {
    const r = await codeT(task, forward, tests);
    expect(r.method).toBe('codet');
    expect(r.selection).toEqual({ kind: 'selected', index: 2, score: 6 });
  });

  it('abstains when no program passes any test', async () => {
    const r = await codeT(task, [forward[1]!], [tests[0]!, tests[1]!, tests[3]!]);
    expect(r.selection).toEqual({ kind: 'abstained' });
  });

  it('refuses programs without source with a typed error', async () => {
    const fns = fromFunctions({ plus: (a: number, b: number) => a + b });
    const e = await codeT(task, fns, tests).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CrosscheckError);
    expect((e as CrosscheckError).code).toBe('INVALID_CANDIDATES');
    expect((e as Error).message).toMatch(/every forward candidate and test must come from fromSources/);
  });
});

describe('CodeT baseline (javascript twin)', () => {
  it('the same scores: P_OK selected with 6', async () => {
    const forward = fromSources(
      [
        { label: 'P_BUG', source: 'function plus(a, b) { return a + b + (a === 3 ? 1 : 0); }' },
        { label: 'P_MUL', source: 'function plus(a, b) { return a * b; }' },
        { label: 'P_OK', source: 'function plus(a, b) { return a + b; }' },
        { label: 'P_OK2', source: 'function plus(a, b) { return b + a; }' },
      ],
      { language: 'javascript', entry: 'plus' },
    );
    const test = (label: string, a: number, b: number, want: number) =>
      fromSources(
        [
          {
            label,
            source: `function test_${label}() { if (plus(${a}, ${b}) !== ${want}) throw new Error('${label} failed'); }`,
          },
        ],
        { language: 'javascript', entry: `test_${label}` },
      )[0]!;
    const r = await codeT(task, forward, [
      test('T1', 1, 2, 3),
      test('T2', 3, 4, 7),
      test('T3', 0, 0, 0),
      test('T_WRONG', 2, 2, 5),
    ]);
    expect(r.selection).toEqual({ kind: 'selected', index: 2, score: 6 });
  });
});
