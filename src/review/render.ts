import type { Tagged } from '../values/index.ts';
import { complexPart, formatTagged } from '../values/index.ts';

/**
 * Values as the judge reads them: Python literals for Python candidates (`True`, `None`, `(1,)`,
 * `{'a': 1}`), JSON-like text for JavaScript. Never truncated here; the judge prompt cuts long
 * outputs in the middle and says so.
 */

const pyFloat = (x: Tagged): string => {
  if (x === 'nan') return "float('nan')";
  if (x === 'inf') return "float('inf')";
  if (x === '-inf') return "float('-inf')";
  if (x === '-0') return '-0.0';
  const n = Number(x);
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : String(n);
};

const pyString = (s: string): string => {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
};

/** A tagged value as Python source. */
export const pythonLiteral = (t: Tagged): string => {
  if (t === null) return 'None';
  if (t === true) return 'True';
  if (t === false) return 'False';
  if (typeof t === 'string') return pyString(t);
  if (typeof t === 'number') return Number.isInteger(t) ? String(t) : pyFloat(t);
  if (Array.isArray(t)) return `[${t.map(pythonLiteral).join(', ')}]`;
  const keys = Object.keys(t);
  const body = keys.length === 1 ? (t[keys[0] as string] as Tagged) : undefined;
  const list = (xs: Tagged[]) => xs.map(pythonLiteral).join(', ');
  switch (keys.length === 1 ? keys[0] : undefined) {
    case '$float':
      return pyFloat(body as Tagged);
    case '$int':
      return String(body);
    case '$tuple': {
      const items = body as Tagged[];
      return items.length === 1 ? `(${pythonLiteral(items[0] as Tagged)},)` : `(${list(items)})`;
    }
    case '$set':
      return (body as Tagged[]).length === 0 ? 'set()' : `{${list(body as Tagged[])}}`;
    case '$frozenset':
      return `frozenset({${list(body as Tagged[])}})`;
    case '$dict':
      return `{${(body as Tagged[][]).map(([k, v]) => `${pythonLiteral(k as Tagged)}: ${pythonLiteral(v as Tagged)}`).join(', ')}}`;
    case '$complex': {
      const [re, im] = body as Tagged[];
      return `complex(${pyFloat(complexPart(re as Tagged))}, ${pyFloat(complexPart(im as Tagged))})`;
    }
    case '$bytes':
      return `bytes.fromhex('${String(body)}')`;
  }
  return formatTagged(t, Number.MAX_SAFE_INTEGER);
};

/** A tagged value in the judge's syntax for the language. */
export const literal = (t: Tagged, syntax: 'python' | 'json'): string =>
  syntax === 'python' ? pythonLiteral(t) : formatTagged(t, Number.MAX_SAFE_INTEGER);
