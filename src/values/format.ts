import type { Tagged } from './codec-core.ts';
import { complexPart } from './complex-part.ts';
import { neutralizeControls } from './controls.ts';

/**
 * A short human-readable rendering of a tagged value for messages and reports: Python-ish where
 * the type is Python's (`4.0`, `(1, 'a')`, `{1, 2}`, `frozenset({1})`, `{1: 'a'}`), JSON-ish
 * otherwise, with control characters shown as escapes (see `neutralizeControls`). Truncated to
 * `max` characters.
 * @public
 */
export const formatTagged = (t: Tagged, max = 200): string => {
  // A string's control characters are shown, never sent raw to whoever prints this.
  const text = neutralizeControls(render(t));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
};

const floatText = (x: Tagged): string => {
  if (x === 'nan') return 'nan';
  if (x === 'inf') return 'inf';
  if (x === '-inf') return '-inf';
  if (x === '-0') return '-0.0';
  const n = Number(x);
  return Number.isInteger(n) ? `${n}.0` : String(n);
};

const list = (items: Tagged[]): string => items.map(render).join(', ');

const render = (t: Tagged): string => {
  if (t === null) return 'null';
  if (typeof t === 'string') return JSON.stringify(t);
  if (typeof t !== 'object') return String(t);
  if (Array.isArray(t)) return `[${list(t)}]`;
  const keys = Object.keys(t);
  const body = keys.length === 1 ? (t[keys[0] as string] as Tagged) : undefined;
  switch (keys.length === 1 ? keys[0] : undefined) {
    case '$float':
      return floatText(body as Tagged);
    case '$int':
      return String(body);
    case '$tuple': {
      const items = body as Tagged[];
      return items.length === 1 ? `(${render(items[0] as Tagged)},)` : `(${list(items)})`;
    }
    case '$set':
      return (body as Tagged[]).length === 0 ? 'set()' : `{${list(body as Tagged[])}}`;
    case '$frozenset':
      return `frozenset({${list(body as Tagged[])}})`;
    case '$dict':
    case '$map':
    case '$object': {
      const pairs = (body as Tagged[][])
        .map(([k, v]) => `${render(k as Tagged)}: ${render(v as Tagged)}`)
        .join(', ');
      return keys[0] === '$map' ? `Map {${pairs}}` : `{${pairs}}`;
    }
    case '$bytes':
      return `b'${String(body)}'`;
    case '$complex': {
      const [re, im] = body as Tagged[];
      return `(${floatText(complexPart(re as Tagged))}+${floatText(complexPart(im as Tagged))}j)`;
    }
    case '$undefined':
      return 'undefined';
    case '$date':
      return `Date(${body === null ? 'invalid' : String(body)})`;
  }
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${render(t[k] as Tagged)}`).join(', ')}}`;
};
