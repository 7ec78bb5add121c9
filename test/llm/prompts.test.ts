import { describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/bench/index.ts';
import { codegenMessages, defineTask } from '../../src/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

describe('code-generation prompts', () => {
  it.runIf(requireData())(
    "should rebuild the paper's request byte for byte for all 150 HumanEval tasks",
    () => {
      const tasks = loadTasks(humanevalDir());
      expect(tasks).toHaveLength(150);
      for (const t of tasks) {
        const task = defineTask({
          name: t.entryPoint,
          entry: t.entryPoint,
          signature: t.signature,
          description: t.description,
        });
        expect(codegenMessages(task, 'python', 'difftrust'), t.taskId).toEqual(t.raw.llm_messages);
      }
    },
  );

  const median = defineTask({
    name: 'median',
    signature: '(xs: number[]) => number',
    description: 'The median of a non-empty list; an empty list is invalid.',
  });

  it.each(['python', 'javascript', 'typescript'] as const)(
    'should ask for one %s block with the invalid-input rule',
    (language) => {
      const [system, user] = codegenMessages(median, language);
      expect(system!.role).toBe('system');
      expect(system!.content).toContain(`\`\`\`${language}`);
      expect(user!.content).toContain('`median(xs: number[]) => number`');
      expect(user!.content).toContain('The median of a non-empty list; an empty list is invalid.');
      expect(user!.content).toContain(language === 'python' ? 'raise `ValueError`' : 'throw a `RangeError`');
    },
  );

  it('should refuse the difftrust prompt for JavaScript, naming the alternative', () => {
    expect(() => codegenMessages(median, 'javascript', 'difftrust')).toThrow(
      "The 'difftrust' prompt asks for Python, as the paper did; got language \"javascript\". Use prompt 'crosscheck' for JavaScript.",
    );
  });
});
