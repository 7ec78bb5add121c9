import { afterAll, describe, expect, it } from 'vitest';
import {
  closeSandboxPools,
  defineTask,
  fromFunctions,
  fromSources,
  type Outcome,
  run,
  type SourceLanguage,
} from '../../src/index.ts';

afterAll(() => closeSandboxPools());

const task = defineTask({ name: 'add' });

/** Runs each source as a candidate for `add` on (1, 2) and (10, -4); returns each candidate's outcomes. */
const outcomesOf = async (
  sources: readonly string[],
  language: SourceLanguage = 'javascript',
): Promise<Outcome[][]> => {
  const cs = fromSources(sources, { language, entry: 'add' });
  const matrix = await run(task, cs, [
    [1, 2],
    [10, -4],
  ]);
  return matrix.outcomes.map((row) => [...row]);
};

const plain = (o: Outcome): unknown => (o.kind === 'value' ? { kind: 'value', tagged: o.tagged } : { ...o });

describe('running sources: the entry is found in every supported form', () => {
  it('should call the entry of each JavaScript form', async () => {
    // Arrange
    const forms = {
      function: 'function add(a, b) { return a + b; }',
      'export function': 'export function add(a, b) { return a + b; }',
      'export default function': 'export default function (a, b) { return a + b; }',
      'export default named function': 'export default function sum(a, b) { return a + b; }',
      'export default arrow': 'export default (a, b) => a + b;',
      'export alias': 'function plus(a, b) { return a + b; }\nexport { plus as add };',
      'export as default': 'function plus(a, b) { return a + b; }\nexport { plus as default };',
      'module.exports function': 'module.exports = function (a, b) { return a + b; };',
      'module.exports object': 'function add(a, b) { return a + b; }\nmodule.exports = { add };',
      'module.exports default': 'module.exports = { default: (a, b) => a + b };',
      'exports property': 'exports.add = (a, b) => a + b;',
      'const arrow': 'const add = (a, b) => a + b;',
      'async function': 'async function add(a, b) { return a + b; }',
      'class static': 'class K { static add(a, b) { return a + b; } }\nconst add = K.add;',
      'Markdown reply':
        'Sure! Usage:\n```js\nconsole.log(add(1, 2));\n```\nImplementation:\n```js\nfunction add(a, b) {\n  return a + b;\n}\n```\n',
      'CRLF Markdown reply':
        'Here:\r\n```javascript\r\nfunction add(a, b) {\r\n  return a + b;\r\n}\r\n```\r\n',
    };

    // Act
    const outcomes = await outcomesOf(Object.values(forms));

    // Assert
    const byForm = Object.fromEntries(Object.keys(forms).map((form, i) => [form, outcomes[i]?.map(plain)]));
    const expected = [
      { kind: 'value', tagged: 3 },
      { kind: 'value', tagged: 6 },
    ];
    expect(byForm).toEqual(Object.fromEntries(Object.keys(forms).map((form) => [form, expected])));
  });

  it('should call the entry of TypeScript with types, interfaces, generics, as and enums', async () => {
    // Arrange
    const sources = [
      'interface Pair { a: number; b: number }\nexport function add(a: number, b: number): number {\n  const p: Pair = { a, b };\n  return p.a + p.b;\n}',
      'const add = <T extends number>(a: T, b: T): number => (a as number) + (b as number);',
      'enum Sign { Plus = 1 }\nexport default (a: number, b: number): number => Sign.Plus * (a + b);',
      '```ts\ntype N = number;\nexport const add = (a: N, b: N): N => a + b;\n```',
    ];

    // Act
    const outcomes = await outcomesOf(sources, 'typescript');

    // Assert
    for (const row of outcomes) {
      expect(row.map(plain)).toEqual([
        { kind: 'value', tagged: 3 },
        { kind: 'value', tagged: 6 },
      ]);
    }
  });
});

describe('running sources: entries named like JavaScript keywords', () => {
  it.each(['delete', 'default', 'new', 'class'])(
    'should find an entry named %s on the exports',
    async (entry) => {
      // Arrange: a valid Python name, and a valid property name in JavaScript.
      const cs = fromSources([`exports[${JSON.stringify(entry)}] = (a, b) => a + b;`], {
        language: 'javascript',
        entry,
      });

      // Act
      const matrix = await run(defineTask({ name: 'keyword', entry }), cs, [[1, 2]]);

      // Assert
      expect(cs[0]?.problem).toBeNull();
      expect(matrix.outcomes[0]?.map(plain)).toEqual([{ kind: 'value', tagged: 3 }]);
    },
  );
});

describe('running sources: problems become outcomes', () => {
  it('should report a missing entry as EntryNotFound listing the functions the candidate defines', async () => {
    // Arrange
    const source = 'function plus(a, b) { return a + b; }\nconst helper = (x) => x;';

    // Act
    const [row] = await outcomesOf([source]);

    // Assert
    expect(row?.map(plain)).toEqual([
      {
        kind: 'error',
        name: 'EntryNotFound',
        message:
          'no function named "add" in the candidate (it defines plus, helper); name the function "add", export it, or pass the right `entry`',
      },
      {
        kind: 'error',
        name: 'EntryNotFound',
        message:
          'no function named "add" in the candidate (it defines plus, helper); name the function "add", export it, or pass the right `entry`',
      },
    ]);
  });

  it('should list only the top-level functions the syntax tree holds, not names in comments, strings or bodies', async () => {
    // Arrange: a text search would list commented, inString, inner and total, and miss plus.
    const source = [
      '// function commented() {}',
      'const note = "function inString() {}";',
      'function outer() { function inner() {} return inner; }',
      'const total = (1 + 2) * 3;',
      'let count = 1, plus = (a, b) => a + b;',
      'function outer() { return 2; }',
    ].join('\n');

    // Act
    const [row] = await outcomesOf([source]);

    // Assert
    expect(row?.[0]).toEqual({
      kind: 'error',
      name: 'EntryNotFound',
      message:
        'no function named "add" in the candidate (it defines outer, plus); name the function "add", export it, or pass the right `entry`',
    });
  });

  it('should report an entry that is not a function as EntryNotFound', async () => {
    // Arrange
    const source = 'const add = 3;';

    // Act
    const [row] = await outcomesOf([source]);

    // Assert
    expect(row?.[0]?.kind).toBe('error');
    expect(row?.[0]?.kind === 'error' && row[0].name).toBe('EntryNotFound');
  });

  it('should give every input of a candidate that does not compile the CompileError, and run the others', async () => {
    // Arrange
    const sources = [
      "import fs from 'node:fs';\nexport const add = (a, b) => a + b;",
      'function add(a, b) {\n  return a + ;\n}',
      "async function add(a, b) { await import('node:fs'); return a + b; }",
      'function add(a, b) { return a + b; }',
    ];

    // Act
    const outcomes = await outcomesOf(sources);

    // Assert
    expect(outcomes.map((row) => row.map((o) => (o.kind === 'error' ? o.name : o.kind)))).toEqual([
      ['CompileError', 'CompileError'],
      ['CompileError', 'CompileError'],
      ['CompileError', 'CompileError'],
      ['value', 'value'],
    ]);
    expect(outcomes[1]?.[0]).toEqual({
      kind: 'error',
      name: 'CompileError',
      message: 'Unexpected token (2:13)',
    });
  });

  it('should report an error thrown while loading the candidate', async () => {
    // Arrange
    const source = "throw new TypeError('boom');\nfunction add(a, b) { return a + b; }";

    // Act
    const [row] = await outcomesOf([source]);

    // Assert
    expect(row?.[0]).toEqual({
      kind: 'error',
      name: 'TypeError',
      message: 'while loading the candidate: boom',
    });
  });
});

describe('running trusted functions', () => {
  it('should run fromFunctions candidates in-process next to sources with the same results', async () => {
    // Arrange
    const cs = [
      ...fromFunctions({ add: (a: number, b: number) => a + b }),
      ...fromSources(['const add = (a, b) => a + b;'], { language: 'javascript', entry: 'add' }),
    ];

    // Act
    const matrix = await run(task, cs, [[2, 3]]);

    // Assert
    expect(matrix.outcomes.map((row) => row.map(plain))).toEqual([
      [{ kind: 'value', tagged: 5 }],
      [{ kind: 'value', tagged: 5 }],
    ]);
    expect(matrix.candidates.map((c) => c.label)).toEqual(['add', 'add#0']);
  });
});

describe('labels within one run', () => {
  it('should give two batches with the same tag distinct labels, first batch unchanged', async () => {
    // Arrange: the same model tag twice (e.g. two prompts), and a label that already ends in ~2.
    const first = fromSources(
      ['function add(a, b) { return a + b; }', 'function add(a, b) { return b + a; }'],
      {
        language: 'javascript',
        entry: 'add',
        tags: { model: 'py' },
      },
    );
    const second = fromSources(
      ['function add(a, b) { return a - b; }', { source: 'function add() { return 0; }', label: 'py#0~2' }],
      { language: 'javascript', entry: 'add', tags: { model: 'py' } },
    );
    // Act
    const matrix = await run(task, [...first, ...second], [[1, 2]]);
    // Assert
    expect(matrix.candidates.map((c) => c.label)).toEqual(['py#0', 'py#1', 'py#0~3', 'py#0~2']);
  });
});
