import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/bench/index.ts';
import { decode, type Tagged } from '../../src/values/index.ts';

/**
 * MBPP keeps a task's inputs only in its `test_list` asserts; a complex argument is written as a
 * Python literal (`1j`, `3-4j`). Those asserts seed the task like any other.
 */
describe('MBPP test_list seeds with complex literals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-mbpp-complex-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should read imaginary and complex literals as $complex seeds the codec decodes', () => {
    // Arrange: an MBPP line as the dataset ships it (numeric id, code, test_list).
    const line = {
      task_id: 124,
      text: 'Write a function to get the angle of a complex number.',
      code: 'import cmath\ndef angle_complex(a,b):\n  cn=complex(a,b)\n  angle=cmath.phase(a+b)\n  return angle',
      test_list: [
        'assert math.isclose(angle_complex(0,1j), 1.5707963267948966, rel_tol=0.001)',
        'assert math.isclose(angle_complex(2,1j), 0.4636476090008061, rel_tol=0.001)',
        'assert math.isclose(angle_complex(0,(3-4.5j)), -0.982793723247329, rel_tol=0.001)',
      ],
    };
    writeFileSync(join(dir, 'tasks.jsonl'), `${JSON.stringify(line)}\n`);
    // Act
    const [task] = loadTasks(dir);
    // Assert
    expect(task?.taskId).toBe('124');
    expect(task?.seedInputs).toEqual([
      [0, { $complex: [0, 1] }],
      [2, { $complex: [0, 1] }],
      [0, { $complex: [3, -4.5] }],
    ]);
    const third = decode(task?.seedInputs[2] as Tagged) as [number, { re: number; im: number }];
    expect([third[1].re, third[1].im]).toEqual([3, -4.5]);
  });
});
