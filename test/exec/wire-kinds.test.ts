import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromWireOutcome, type Outcome, toWireOutcome, WIRE } from '../../src/index.ts';
import { root } from '../reporter/helpers.ts';

/** The outcome kinds on the wire have one table, shared by the TypeScript host and the Python worker. */

const WORKER = join(root, 'python', 'crosscheck_worker', 'protocol.py');

/** The worker's WIRE_* constants, read from its syntax tree (importing it would start a worker). */
const pythonTable = (): Record<string, number> => {
  const script = [
    'import ast, json, sys',
    'tree = ast.parse(open(sys.argv[1]).read())',
    'out = {}',
    'for node in tree.body:',
    '    if isinstance(node, ast.Assign):',
    '        for target in node.targets:',
    '            names = [t.id for t in getattr(target, "elts", [target]) if isinstance(t, ast.Name)]',
    '            values = getattr(node.value, "elts", [node.value])',
    '            for name, value in zip(names, values):',
    '                if name.startswith("WIRE_") and isinstance(value, ast.Constant):',
    '                    out[name] = value.value',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, WORKER], { encoding: 'utf8' })) as Record<
    string,
    number
  >;
};

describe('wire outcome kinds', () => {
  it('should have the same table in the Python worker as in WIRE', () => {
    // Act
    const python = pythonTable();
    // Assert
    const expected = Object.fromEntries(
      Object.entries(WIRE).map(([kind, n]) => [`WIRE_${kind.toUpperCase()}`, n]),
    );
    expect(python).toEqual(expected);
  });

  it("should spell a value as WIRE.value wherever the worker writes the literal '[n,'", () => {
    // Arrange: the worker's hot paths write value outcomes as text, not through the constant.
    const literals = [...readFileSync(WORKER, 'utf8').matchAll(/"\[(\d+),/g)].map((m) => Number(m[1]));
    // Assert
    expect(literals.length).toBeGreaterThan(0);
    expect(new Set(literals)).toEqual(new Set([WIRE.value]));
  });

  it('should number every outcome kind by the table, both ways', () => {
    // Arrange
    const outcomes: Outcome[] = [
      { kind: 'value', tagged: 1 } as Outcome,
      { kind: 'invalid', name: 'ValueError', message: 'no' },
      { kind: 'error', name: 'TypeError', message: 'bad' },
      { kind: 'timeout', reason: 'call', ms: 10 },
      { kind: 'crash', reason: 'exit 1' },
    ];
    for (const o of outcomes) {
      // Act
      const wire = toWireOutcome(o);
      // Assert
      expect(wire[0]).toBe(WIRE[o.kind]);
      expect(fromWireOutcome(wire).kind).toBe(o.kind);
    }
  });
});
