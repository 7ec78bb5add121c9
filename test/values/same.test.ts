import { describe, expect, it } from 'vitest';
import { type CrosscheckError, candidates, defineTask, measure, same } from '../../src/index.ts';

describe('same: comparators for outputs with many right spellings', () => {
  it('should compare canonical JSON, text, numbers, sets, lists, fields and keys', () => {
    expect(same.json()({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(same.json()([1, 2], [2, 1])).toBe(false);
    expect(same.text()('  ACME   Corp ', 'acme corp')).toBe(true);
    expect(same.text()('ACME Corp.', 'acme corp')).toBe(false);
    expect(same.text({ ignorePunctuation: true })('ACME Corp.', 'acme corp')).toBe(true);
    expect(same.text({ ignoreAccents: true })('Café', 'cafe')).toBe(true);
    expect(same.text({ ignoreCase: false })('A', 'a')).toBe(false);
    expect(same.number({ abs: 0.01 })(12.5, '12.50')).toBe(true);
    expect(same.number({ abs: 0.01 })('1,200', 1200.004)).toBe(true);
    expect(same.number({ abs: 0.01 })(12.5, 12.52)).toBe(false);
    expect(same.number({ parseStrings: false })(12.5, '12.5')).toBe(false);
    expect(same.set(same.text())(['Pens', 'ink', 'pens'], ['INK', 'pens'])).toBe(true);
    expect(same.set()(['a'], ['a', 'b'])).toBe(false);
    expect(same.list(same.number({ abs: 0.5 }))([1, 2], [1.4, 2])).toBe(true);
    expect(same.list(same.number({ abs: 0.5 }))([1, 2], [2, 1])).toBe(false);
    const invoice = same.fields({ total: same.number({ abs: 0.01 }), vendor: same.text() });
    expect(invoice({ total: 10, vendor: 'ACME', id: 1 }, { total: '10.00', vendor: 'acme', id: 1 })).toBe(
      true,
    );
    expect(invoice({ total: 10, vendor: 'ACME', id: 1 }, { total: 10, vendor: 'acme', id: 2 })).toBe(false);
    expect(same.fields({ total: same.number() }, { rest: 'ignore' })({ total: 1, x: 1 }, { total: 1 })).toBe(
      true,
    );
    expect(same.by((x) => String(x).slice(0, 3))('2024-01-02', '2024-12-31')).toBe(true);
    expect(invoice.description).toBe('fields(total: number(abs 0.01), vendor: text)');
  });

  it('should refuse bad options with a typed error that says what to fix', () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as CrosscheckError;
      }
      throw new Error('expected a throw');
    };
    expect(thrown(() => same.number({ abs: -1 })).message).toContain('`abs` must be a finite number ≥ 0');
    expect(thrown(() => same.text({ ignorecase: true } as never)).message).toContain('ignorecase');
    expect(thrown(() => same.set('x' as never)).code).toBe('INVALID_OPTION');
    expect(thrown(() => same.by(3 as never)).message).toContain('key function');
  });

  it('should decide agreement in measure and name itself there', async () => {
    const task = defineTask({ name: 'vendor' });
    const pool = candidates.fromFunctions({
      upper: (s: string) => ({ vendor: s.toUpperCase(), total: '12.50' }),
      lower: (s: string) => ({ total: 12.5, vendor: s.toLowerCase() }),
    });
    const inputs: [string][] = [['Acme'], ['Globex']];
    const strict = await measure(task, pool, { inputs });
    expect(strict.incoherence?.estimate).toBe(1);
    const equality = same.fields({ vendor: same.text(), total: same.number({ abs: 0.005 }) });
    const semantic = await measure(task, pool, { inputs, equality });
    expect(semantic.incoherence?.estimate).toBe(0);
    expect(semantic.equality).toBe('fields(vendor: text, total: number(abs 0.005))');
  });
});
