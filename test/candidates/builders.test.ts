import { describe, expect, it } from 'vitest';
import {
  fromFunctions,
  fromSources,
  isCandidate,
  isCrosscheckError,
  type SourceCandidate,
} from '../../src/index.ts';

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

const js = (source: string, entry = 'add'): SourceCandidate =>
  fromSources([source], { language: 'javascript', entry })[0]!;
const ts = (source: string, entry = 'add'): SourceCandidate =>
  fromSources([source], { language: 'typescript', entry })[0]!;

describe('fromFunctions', () => {
  it('should label array candidates by function name and index, and tag the sample', () => {
    // Arrange
    function add(a: number, b: number): number {
      return a + b;
    }

    // Act
    const [named, anonymous] = fromFunctions([add, (a: number) => a], { tags: { model: 'hand' } });

    // Assert
    expect(named?.kind).toBe('function');
    expect(named?.label).toBe('add');
    expect(named?.tags).toEqual({ model: 'hand', sample: 0 });
    expect(anonymous?.label).toBe('fn#1');
    expect(anonymous?.tags).toEqual({ model: 'hand', sample: 1 });
    expect(isCandidate(named)).toBe(true);
    expect(Object.isFrozen(named)).toBe(true);
  });

  it('should label record candidates by key and use the label prefix for arrays', () => {
    // Act
    const record = fromFunctions({ fast: () => 1, safe: () => 2 });
    const prefixed = fromFunctions([() => 1, () => 2], { label: 'mine' });

    // Assert
    expect(record.map((c) => c.label)).toEqual(['fast', 'safe']);
    expect(prefixed.map((c) => c.label)).toEqual(['mine#0', 'mine#1']);
  });

  it('should give the same function the same id in every call, and different functions different ids', () => {
    // Arrange
    const f = (a: number): number => a + 1;
    const g = (a: number): number => a + 2;

    // Act
    const first = fromFunctions([f, g]);
    const second = fromFunctions([f, g]);

    // Assert
    expect(first.map((c) => c.id)).toEqual(second.map((c) => c.id));
    expect(first[0]?.id).not.toBe(first[1]?.id);
    expect(first[0]?.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('should reject something that is not an array or record', () => {
    // Act
    const error = thrown(() => fromFunctions((() => 1) as never));
    const nothing = thrown(() => fromFunctions(null as never));

    // Assert
    expect(error.code).toBe('INVALID_CANDIDATES');
    expect(error.where).toBe('candidates.fromFunctions(fns)');
    expect(error.message).toMatchInlineSnapshot(
      `"Expected an array or a record of functions, got a function (anonymous)."`,
    );
    expect(nothing.message).toMatchInlineSnapshot(`"Expected an array or a record of functions, got null."`);
  });

  it('should reject an element that is not a function and name it', () => {
    // Act
    const inArray = thrown(() => fromFunctions([() => 1, 'x'] as never));
    const inRecord = thrown(() => fromFunctions({ good: () => 1, bad: 42 } as never));

    // Assert
    expect(inArray.code).toBe('INVALID_CANDIDATES');
    expect(inArray.message).toMatchInlineSnapshot(
      `"Expected candidate 1 to be a function, got "x" (string)."`,
    );
    expect(inRecord.message).toMatchInlineSnapshot(
      `"Expected candidate bad to be a function, got 42 (number)."`,
    );
  });

  it('should reject tags that are not an object of primitives', () => {
    // Act
    const notObject = thrown(() => fromFunctions([() => 1], { tags: 'gpt' as never }));
    const badValue = thrown(() => fromFunctions([() => 1], { tags: { model: ['gpt'] } as never }));

    // Assert
    expect(notObject.code).toBe('INVALID_OPTION');
    expect(notObject.message).toMatchInlineSnapshot(
      `"candidates.fromFunctions(fns): \`tags\` must be an object of strings, numbers or booleans, got "gpt" (string). Pass e.g. { tags: { model: "gpt-4o", temperature: 0.6 } }."`,
    );
    expect(badValue.code).toBe('INVALID_OPTION');
    expect(badValue.message).toMatchInlineSnapshot(
      `"candidates.fromFunctions(fns): \`tags.model\` must be a string, number or boolean, got an array of length 1. Pass e.g. { tags: { model: "gpt-4o", temperature: 0.6 } }."`,
    );
  });

  it('should reject options that are not an object', () => {
    // Act
    const error = thrown(() => fromFunctions([() => 1], null as never));

    // Assert
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toMatchInlineSnapshot(`"Expected options { tags?, label? }, got null."`);
  });
});

describe('fromSources: labels, tags and ids', () => {
  it('should label by model tag and sample index and tag every candidate', () => {
    // Act
    const cs = fromSources(['function add(a, b) { return a + b; }', 'const add = (a, b) => b + a;'], {
      language: 'javascript',
      entry: 'add',
      tags: { model: 'gpt-4o', temperature: 0.6 },
    });

    // Assert
    expect(cs.map((c) => c.label)).toEqual(['gpt-4o#0', 'gpt-4o#1']);
    expect(cs.map((c) => c.tags)).toEqual([
      { model: 'gpt-4o', temperature: 0.6, sample: 0 },
      { model: 'gpt-4o', temperature: 0.6, sample: 1 },
    ]);
    expect(cs.every((c) => c.kind === 'source' && c.language === 'javascript' && c.entry === 'add')).toBe(
      true,
    );
    expect(cs.every(isCandidate)).toBe(true);
  });

  it('should label by entry without a model, by the label option when given, and by a per-source label', () => {
    // Act
    const byEntry = fromSources(['x'], { language: 'python', entry: 'add' });
    const byOption = fromSources(['x'], { language: 'python', entry: 'add', label: 'mine' });
    const bySpec = fromSources([{ source: 'x', label: 'truth', tags: { role: 'reference' } }], {
      language: 'python',
      entry: 'add',
      tags: { model: 'm' },
    });

    // Assert
    expect(byEntry[0]?.label).toBe('add#0');
    expect(byOption[0]?.label).toBe('mine#0');
    expect(bySpec[0]?.label).toBe('truth');
    expect(bySpec[0]?.tags).toEqual({ model: 'm', sample: 0, role: 'reference' });
  });

  it('should give the same code the same id, whatever the prose, label or position', () => {
    // Arrange
    const code = 'def add(a, b):\n    return a + b';

    // Act
    const [raw, fenced] = fromSources([code, `Here you go:\n\`\`\`python\n${code}\n\`\`\`\nEnjoy!`], {
      language: 'python',
      entry: 'add',
    });
    const [again] = fromSources([{ source: code, label: 'other' }], { language: 'python', entry: 'add' });
    const [otherCode] = fromSources(['def add(a, b):\n    return b + a'], {
      language: 'python',
      entry: 'add',
    });
    const [otherEntry] = fromSources([code], { language: 'python', entry: 'plus' });

    // Assert
    expect(fenced?.code).toBe(code);
    expect(fenced?.id).toBe(raw?.id);
    expect(again?.id).toBe(raw?.id);
    expect(otherCode?.id).not.toBe(raw?.id);
    expect(otherEntry?.id).not.toBe(raw?.id);
  });

  it('should keep the reply and the extracted code, and leave Python code unprepared but runnable', () => {
    // Arrange
    const reply = 'Sure!\n```python\ndef add(a, b):\n    return a + b\n```';

    // Act
    const [c] = fromSources([reply], { language: 'python', entry: 'add' });

    // Assert
    expect(c?.source).toBe(reply);
    expect(c?.code).toBe('def add(a, b):\n    return a + b');
    expect(c?.prepared).toBe(c?.code);
    expect(c?.problem).toBeNull();
  });
});

describe('fromSources: preparing JavaScript and TypeScript', () => {
  it.each([
    ['function', 'function add(a, b) { return a + b; }'],
    ['export function', 'export function add(a, b) { return a + b; }'],
    ['export default function', 'export default function (a, b) { return a + b; }'],
    ['export default arrow', 'export default (a, b) => a + b;'],
    ['export alias', 'function plus(a, b) { return a + b; }\nexport { plus as add };'],
    ['module.exports function', 'module.exports = function (a, b) { return a + b; };'],
    ['module.exports object', 'function add(a, b) { return a + b; }\nmodule.exports = { add };'],
    ['exports property', 'exports.add = (a, b) => a + b;'],
    ['const arrow', 'const add = (a, b) => a + b;'],
    ['async function', 'async function add(a, b) { return a + b; }'],
    ['hashbang', '#!/usr/bin/env node\nfunction add(a, b) { return a + b; }'],
    ['sloppy script', 'function add(a, b) { with (Math) { return a + b + floor(0); } }'],
  ])('should prepare a JS %s without a problem', (_form, source) => {
    // Act
    const c = js(source);

    // Assert
    expect(c.problem).toBeNull();
    expect(typeof c.prepared).toBe('string');
  });

  it.each([
    ['annotations', 'function add(a: number, b: number): number { return a + b; }'],
    [
      'interfaces and type aliases',
      'interface P { a: number }\ntype N = number;\nexport function add(a: N, b: N): N { return a + b; }',
    ],
    [
      'generics and as',
      'function add<T extends number>(a: T, b: T): number { return (a as number) + (b as number); }',
    ],
    [
      'enums',
      'enum Op { Plus = 1 }\nexport const add = (a: number, b: number): number => (Op.Plus === 1 ? a + b : 0);',
    ],
    [
      'type-only imports',
      "import type { Foo } from './foo';\nexport function add(a: number, b: number): number { return a + b; }",
    ],
    [
      'classes with modifiers',
      'class K { private constructor() {}\n static add(a: number, b: number) { return a + b; } }\nexport const add = K.add;',
    ],
  ])('should strip TypeScript %s', (_form, source) => {
    // Act
    const c = ts(source);

    // Assert
    expect(c.problem).toBeNull();
    expect(c.prepared).not.toMatch(/: number|interface |<T extends/);
  });

  it('should keep the top-level functions the code defines, once each, in source order', () => {
    // Act
    const plain = js(
      'function sum(a, b) { function inner() {} return a + b; }\n// function commented() {}\nexport const twice = async (x) => 2 * x;\nvar half = function () {};\nvar half = (x) => x / 2;',
    );
    const typed = ts(
      'const id = <T,>(x: T): T => x;\nexport default function half(x: number) { return x / 2; }',
    );
    const broken = js('function add(a, b) {');
    const [python] = fromSources(['def add(a, b):\n    return a + b'], { language: 'python', entry: 'add' });

    // Assert
    expect(plain.problem).toBeNull();
    expect(plain.functions).toEqual(['sum', 'twice', 'half']);
    expect(typed.functions).toEqual(['id', 'half']);
    expect(broken.functions).toEqual([]);
    expect(python?.functions).toEqual([]);
  });

  it('should report an import as a CompileError naming the module', () => {
    // Act
    const c = js("import { sum } from 'lodash';\nexport const add = (a, b) => sum([a, b]);");

    // Assert
    expect(c.prepared).toBeNull();
    expect(c.problem).toMatchInlineSnapshot(`
      {
        "message": "imports are not available in the sandbox (the candidate imports "lodash"); candidates must be self-contained",
        "name": "CompileError",
      }
    `);
  });

  it('should report a require-free re-export and export-all as a CompileError', () => {
    // Act
    const reexport = js("export { add } from './add';");
    const all = js("export * from './add';");

    // Assert
    expect(reexport.problem?.name).toBe('CompileError');
    expect(reexport.problem?.message).toMatchInlineSnapshot(
      `"re-exports from other modules are not available in the sandbox"`,
    );
    expect(all.problem?.message).toMatchInlineSnapshot(
      `"imports are not available in the sandbox (the candidate imports "./add"); candidates must be self-contained"`,
    );
  });

  it('should report import() and import.meta as a CompileError with the offset', () => {
    // Act
    const dynamic = js("async function add(a, b) { const m = await import('fs'); return a + b; }");
    const meta = js('function add(a, b) { return import.meta.url; }');

    // Assert
    expect(dynamic.problem).toMatchInlineSnapshot(`
      {
        "message": "import() and import.meta are not available in the sandbox (at offset 43); candidates must be self-contained",
        "name": "CompileError",
      }
    `);
    expect(meta.problem?.name).toBe('CompileError');
    expect(meta.problem?.message).toContain('import() and import.meta are not available in the sandbox');
  });

  it('should report a JS syntax error with its line and column', () => {
    // Act
    const c = js('function add(a, b) {\n  return a + ;\n}');

    // Assert
    expect(c.problem).toMatchInlineSnapshot(`
      {
        "message": "Unexpected token (2:13)",
        "name": "CompileError",
      }
    `);
  });

  it('should report a TypeScript syntax error with its line and column', () => {
    // Act
    const c = ts('function add(a: number, b: number): number {\n  return a + ;\n}');

    // Assert
    expect(c.problem).toMatchInlineSnapshot(`
      {
        "message": "TypeScript could not be stripped: Unexpected token (2:14)",
        "name": "CompileError",
      }
    `);
  });

  it('should report the TypeScript import of a module after stripping types', () => {
    // Act
    const c = ts(
      "import { z } from 'zod';\nexport const add = (a: number, b: number) => z.number().parse(a + b);",
    );

    // Assert
    expect(c.problem?.name).toBe('CompileError');
    expect(c.problem?.message).toContain('(the candidate imports "zod")');
  });
});

describe('fromSources: bad arguments', () => {
  it('should reject sources that are not an array', () => {
    // Act
    const error = thrown(() =>
      fromSources('function add() {}' as never, { language: 'javascript', entry: 'add' }),
    );

    // Assert
    expect(error.code).toBe('INVALID_CANDIDATES');
    expect(error.where).toBe('candidates.fromSources(sources, { language, entry })');
    expect(error.message).toMatchInlineSnapshot(
      `"Expected \`sources\` to be an array of strings (LLM replies or code), got "function add() {}" (string)."`,
    );
  });

  it('should reject a source that is neither a string nor { source }', () => {
    // Act
    const number = thrown(() => fromSources(['ok', 42] as never, { language: 'javascript', entry: 'add' }));
    const spec = thrown(() =>
      fromSources([{ code: 'x' }] as never, { language: 'javascript', entry: 'add' }),
    );

    // Assert
    expect(number.code).toBe('INVALID_CANDIDATES');
    expect(number.message).toMatchInlineSnapshot(
      `"Expected source 1 to be a string or { source: string }, got 42 (number)."`,
    );
    expect(spec.message).toMatchInlineSnapshot(
      `"Expected source 0 to be a string or { source: string }, got an object with keys [code]."`,
    );
  });

  it('should reject missing options', () => {
    // Act
    const error = thrown(() => fromSources(['x'], undefined as never));

    // Assert
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toMatchInlineSnapshot(`"Expected options { language, entry }, got undefined."`);
  });

  it('should reject an unknown language', () => {
    // Act
    const error = thrown(() => fromSources(['x'], { language: 'ruby' as never, entry: 'add' }));

    // Assert
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toMatchInlineSnapshot(
      `"Expected \`language\` to be one of 'javascript', 'typescript', 'python', got "ruby" (string)."`,
    );
  });

  it('should reject an entry that is not an identifier', () => {
    // Act
    const spaced = thrown(() => fromSources(['x'], { language: 'python', entry: 'add two' }));
    const missing = thrown(() => fromSources(['x'], { language: 'python' } as never));

    // Assert
    expect(spaced.code).toBe('INVALID_OPTION');
    expect(spaced.message).toMatchInlineSnapshot(
      `"Expected \`entry\` to be the name of the function to call (an identifier), got "add two" (string)."`,
    );
    expect(missing.message).toMatchInlineSnapshot(
      `"Expected \`entry\` to be the name of the function to call (an identifier), got undefined."`,
    );
  });

  it('should reject a label that is not a non-empty string, on the options or on one source', () => {
    // Act
    const onOptions = thrown(() =>
      fromSources(['x'], { language: 'python', entry: 'add', label: 5 as never }),
    );
    const onSource = thrown(() =>
      fromSources(['x', { source: 'y', label: '' }], { language: 'python', entry: 'add' }),
    );
    const onFunctions = thrown(() => fromFunctions([() => 1], { label: {} as never }));

    // Assert
    expect(onOptions.code).toBe('INVALID_OPTION');
    expect(onOptions.message).toMatchInlineSnapshot(
      `"candidates.fromSources(sources, { language, entry }): \`label\` must be a non-empty string, got 5 (number). Pass e.g. { label: "gpt-4o" }."`,
    );
    expect(onSource.message).toMatchInlineSnapshot(
      `"candidates.fromSources(sources, { language, entry }): \`sources[1].label\` must be a non-empty string, got "" (string). Pass e.g. { label: "gpt-4o" }."`,
    );
    expect(onFunctions.message).toMatchInlineSnapshot(
      `"candidates.fromFunctions(fns): \`label\` must be a non-empty string, got an object with keys []. Pass e.g. { label: "gpt-4o" }."`,
    );
  });

  it('should reject bad tags, on the options or on one source', () => {
    // Act
    const onOptions = thrown(() =>
      fromSources(['x'], { language: 'python', entry: 'add', tags: { model: null } as never }),
    );
    const onSource = thrown(() =>
      fromSources([{ source: 'x', tags: [1] as never }], { language: 'python', entry: 'add' }),
    );

    // Assert
    expect(onOptions.code).toBe('INVALID_OPTION');
    expect(onOptions.message).toMatchInlineSnapshot(
      `"candidates.fromSources(sources, { language, entry }): \`tags.model\` must be a string, number or boolean, got null. Pass e.g. { tags: { model: "gpt-4o", temperature: 0.6 } }."`,
    );
    expect(onSource.message).toMatchInlineSnapshot(
      `"candidates.fromSources(sources, { language, entry }): \`sources[0].tags\` must be an object of strings, numbers or booleans, got an array of length 1. Pass e.g. { tags: { model: "gpt-4o", temperature: 0.6 } }."`,
    );
  });
});
