import { describe, expect, it } from 'vitest';
import { candidates, defineTask, isCrosscheckError, isTask, type TaskSpec } from '../../src/index.ts';
import { gen } from '../../src/inputs/index.ts';

/** Runs `f` and returns the CrosscheckError it throws (failing the test otherwise). */
const thrown = (f: () => unknown): Error & { code: string; where?: string } => {
  try {
    f();
  } catch (error) {
    if (isCrosscheckError(error)) return error as never;
    throw error;
  }
  throw new Error('expected a CrosscheckError, nothing was thrown');
};

/** The error of a spec that is valid except for the given fields. */
const invalid = (fields: Record<string, unknown>): Error & { code: string; where?: string } =>
  thrown(() => defineTask({ name: 'add', ...fields } as unknown as TaskSpec));

describe('defineTask: invalid fields', () => {
  it('should reject a spec that is not an object', () => {
    // Act
    const error = thrown(() => defineTask(null as unknown as TaskSpec));

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.message).toMatchInlineSnapshot(`"defineTask: \`spec\` must be an object, got null."`);
  });

  it('should reject a missing name', () => {
    // Act
    const error = thrown(() => defineTask({} as TaskSpec));

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ name })');
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`name\` must be a non-empty string, got undefined. Give the task a short name, e.g. defineTask({ name: 'sortAsc' })."`,
    );
  });

  it('should reject an empty or blank name', () => {
    // Act
    const empty = invalid({ name: '' });
    const blank = invalid({ name: '   ' });

    // Assert
    expect(empty.code).toBe('INVALID_TASK');
    expect(empty.message).toMatchInlineSnapshot(
      `"defineTask: \`name\` must be a non-empty string, got "" (string). Give the task a short name, e.g. defineTask({ name: 'sortAsc' })."`,
    );
    expect(blank.message).toMatchInlineSnapshot(
      `"defineTask: \`name\` must be a non-empty string, got "   " (string). Give the task a short name, e.g. defineTask({ name: 'sortAsc' })."`,
    );
  });

  it('should reject a name that is not a string', () => {
    // Act
    const error = invalid({ name: 42 });

    // Assert
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`name\` must be a non-empty string, got 42 (number). Give the task a short name, e.g. defineTask({ name: 'sortAsc' })."`,
    );
  });

  it('should reject a description that is not a string', () => {
    // Act
    const error = invalid({ description: ['adds'] });

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ description })');
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`description\` must be a string, got an array of length 1."`,
    );
  });

  it('should reject a signature that is not a string', () => {
    // Act
    const error = invalid({ signature: 3 });

    // Assert
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`signature\` must be a string, got 3 (number)."`,
    );
  });

  it('should reject an entry that is not an identifier', () => {
    // Act
    const spaced = invalid({ entry: 'my func' });
    const numeric = invalid({ entry: 1 });
    const empty = invalid({ entry: '' });

    // Assert
    expect(spaced.code).toBe('INVALID_TASK');
    expect(spaced.where).toBe('defineTask({ entry })');
    expect(spaced.message).toMatchInlineSnapshot(
      `"defineTask: \`entry\` must be a function name (an identifier), got "my func" (string). Name the function the candidates define, e.g. entry: 'sortAsc'."`,
    );
    expect(numeric.message).toMatchInlineSnapshot(
      `"defineTask: \`entry\` must be a function name (an identifier), got 1 (number). Name the function the candidates define, e.g. entry: 'sortAsc'."`,
    );
    expect(empty.message).toMatchInlineSnapshot(
      `"defineTask: \`entry\` must be a function name (an identifier), got "" (string). Name the function the candidates define, e.g. entry: 'sortAsc'."`,
    );
  });

  it('should reject inputs that are neither a Gen nor an array', () => {
    // Act
    const error = invalid({ inputs: { a: 1 } });

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ inputs })');
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`inputs\` must be a Gen (from gen.*) or an array of argument tuples, got an object with keys [a]. Wrap single arguments: [[1], [2]]."`,
    );
  });

  it('should reject an inputs element that is not an argument tuple and name its index', () => {
    // Act
    const error = invalid({ inputs: [[1, 2], 3] });

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ inputs[1] })');
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`inputs[1]\` must be an argument tuple (an array of positional arguments), got 3 (number). Write [3] for a one-argument call."`,
    );
  });

  it('should write the fix for a string or object element as code', () => {
    // Act
    const text = invalid({ inputs: ['abc'] });
    const object = invalid({ inputs: [{ xs: [1] }] });

    // Assert
    expect(text.message).toMatchInlineSnapshot(
      `"defineTask: \`inputs[0]\` must be an argument tuple (an array of positional arguments), got "abc" (string). Write ["abc"] for a one-argument call."`,
    );
    expect(object.message).toMatchInlineSnapshot(
      `"defineTask: \`inputs[0]\` must be an argument tuple (an array of positional arguments), got an object with keys [xs]. Write [{"xs":[1]}] for a one-argument call."`,
    );
  });

  it('should reject a reference that is neither a function nor a candidate', () => {
    // Act
    const error = invalid({ reference: 'def add(a, b): return a + b' });

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ reference })');
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`reference\` must be a function or a candidate, got "def add(a, b): return a + b" (string). For source code, pass a candidate: candidates.fromSources([code], { language, entry })[0]."`,
    );
  });

  it('should reject an unknown equality mode', () => {
    // Act
    const error = invalid({ equality: 'loose' });

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ equality })');
    expect(error.message).toMatchInlineSnapshot(
      `"defineTask: \`equality\` must be 'strict', 'python', 'mixed', 'difftrust' or a function (a, b) => boolean, got "loose" (string)."`,
    );
  });

  it('should reject invalidInput that is not an array of names', () => {
    // Act
    const notArray = invalid({ invalidInput: 'ValueError' });
    const notNames = invalid({ invalidInput: ['ValueError', RangeError] });

    // Assert
    expect(notArray.code).toBe('INVALID_TASK');
    expect(notArray.where).toBe('defineTask({ invalidInput })');
    expect(notArray.message).toMatchInlineSnapshot(
      `"defineTask: \`invalidInput\` must be an array of error class names, got "ValueError" (string). For example ['ValueError', 'TypeError']."`,
    );
    expect(notNames.message).toMatchInlineSnapshot(
      `"defineTask: \`invalidInput\` must be an array of error class names, got an array of length 2. For example ['ValueError', 'TypeError']."`,
    );
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
    ['a string', '100'],
  ])('should reject a %s timeoutMs', (_what, timeoutMs) => {
    // Act
    const error = invalid({ timeoutMs });

    // Assert
    expect(error.code).toBe('INVALID_TASK');
    expect(error.where).toBe('defineTask({ timeoutMs })');
    expect(error.message).toMatch(
      /^defineTask: `timeoutMs` must be a positive number of milliseconds, got .+\. For example timeoutMs: 2000\.$/,
    );
  });

  it('should describe the received timeoutMs', () => {
    // Act
    const messages = [0, Number.NaN, '100'].map((timeoutMs) => invalid({ timeoutMs }).message);

    // Assert
    expect(messages).toMatchInlineSnapshot(`
      [
        "defineTask: \`timeoutMs\` must be a positive number of milliseconds, got 0 (number). For example timeoutMs: 2000.",
        "defineTask: \`timeoutMs\` must be a positive number of milliseconds, got NaN (number). For example timeoutMs: 2000.",
        "defineTask: \`timeoutMs\` must be a positive number of milliseconds, got "100" (string). For example timeoutMs: 2000.",
      ]
    `);
  });
});

describe('defineTask: valid tasks', () => {
  it('should freeze the task and fill the defaults', () => {
    // Act
    const task = defineTask({ name: 'add' });

    // Assert
    expect(isTask(task)).toBe(true);
    expect(Object.isFrozen(task)).toBe(true);
    expect(task).toEqual({
      name: 'add',
      description: undefined,
      signature: undefined,
      entry: 'add',
      inputs: undefined,
      reference: undefined,
      equality: undefined,
      invalidInput: undefined,
      timeoutMs: 1000,
    });
  });

  it('should default the entry to the name only when the name is an identifier', () => {
    // Act
    const identifier = defineTask({ name: 'has_close_elements' });
    const dollar = defineTask({ name: '$sum' });
    const spaced = defineTask({ name: 'sort ascending' });
    const dashed = defineTask({ name: 'HumanEval/0' });
    const explicit = defineTask({ name: 'HumanEval/0', entry: 'has_close_elements' });

    // Assert
    expect(identifier.entry).toBe('has_close_elements');
    expect(dollar.entry).toBe('$sum');
    expect(spaced.entry).toBeUndefined();
    expect(dashed.entry).toBeUndefined();
    expect(explicit.entry).toBe('has_close_elements');
  });

  it('should copy and freeze input and invalidInput arrays so later edits do not leak in', () => {
    // Arrange
    const inputs: number[][] = [[1, 2]];
    const invalidInput = ['ValueError'];

    // Act
    const task = defineTask({ name: 'add', inputs, invalidInput });
    inputs.push([3, 4]);
    invalidInput.push('TypeError');

    // Assert
    expect(task.inputs).toEqual([[1, 2]]);
    expect(Object.isFrozen(task.inputs)).toBe(true);
    expect(task.invalidInput).toEqual(['ValueError']);
    expect(Object.isFrozen(task.invalidInput)).toBe(true);
  });

  it('should keep every valid field', () => {
    // Arrange
    const inputs = gen.fromExamples([[1, 2]]);
    const eq = (a: unknown, b: unknown): boolean => a === b;

    // Act
    const task = defineTask({
      name: 'add',
      description: 'Adds two numbers.',
      signature: '(a: number, b: number) => number',
      entry: 'plus',
      inputs,
      equality: eq,
      invalidInput: [],
      timeoutMs: 0.5,
    });

    // Assert
    expect(task.description).toBe('Adds two numbers.');
    expect(task.signature).toBe('(a: number, b: number) => number');
    expect(task.entry).toBe('plus');
    expect(task.inputs).toBe(inputs);
    expect(task.equality).toBe(eq);
    expect(task.invalidInput).toEqual([]);
    expect(task.timeoutMs).toBe(0.5);
  });

  it.each(['strict', 'python', 'mixed', 'difftrust'] as const)(
    'should accept the %s equality mode',
    (equality) => {
      // Act
      const task = defineTask({ name: 'add', equality });

      // Assert
      expect(task.equality).toBe(equality);
    },
  );

  it('should wrap a reference function as a trusted candidate', () => {
    // Arrange
    const add = (a: number, b: number): number => a + b;

    // Act
    const task = defineTask({ name: 'add', reference: add });

    // Assert
    expect(task.reference?.kind).toBe('function');
    expect(task.reference?.label).toBe('reference');
    expect(task.reference?.kind === 'function' && task.reference.fn).toBe(add);
  });

  it('should keep a reference candidate as given', () => {
    // Arrange
    const [reference] = candidates.fromSources(['def add(a, b):\n    return a + b\n'], {
      language: 'python',
      entry: 'add',
    });

    // Act
    const task = defineTask({ name: 'add', reference });

    // Assert
    expect(task.reference).toBe(reference);
  });

  it('should not be a task when built by hand', () => {
    // Arrange
    const lookalike = { ...defineTask({ name: 'add' }) };

    // Act, Assert
    expect(isTask(lookalike)).toBe(false);
    expect(isTask(null)).toBe(false);
  });
});

describe('defineTask: unknown fields', () => {
  it('should reject a misspelt field and suggest the right one', () => {
    expect(() => defineTask({ name: 'f', timeout: 100 } as never)).toThrow(
      'defineTask: unknown field `timeout`; did you mean `timeoutMs`? The fields are `name`, `description`, `signature`, `entry`, `inputs`, `reference`, `equality`, `invalidInput`, `timeoutMs`.',
    );
    expect(() => defineTask({ name: 'f', refrence: () => 1 } as never)).toThrow('did you mean `reference`?');
  });

  it('should reject a field that resembles none without a suggestion', () => {
    expect(() => defineTask({ name: 'f', model: 'gpt-4o' } as never)).toThrow(
      'defineTask: unknown field `model`. The fields are',
    );
  });
});
