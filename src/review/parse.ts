import { literalCallArgs } from '../bench/index.ts';
import type { Args } from '../inputs/index.ts';
import { decode, encode } from '../values/index.ts';
import type { Scenario } from './types.ts';

/**
 * Reading model replies. Every reader returns what it could read plus a problem in words for
 * what it could not: review feeds those words back to the model (a re-ask or a repair) and into
 * the result, never drops them.
 */

const FENCE = /```[^\n`]*\n([\s\S]*?)(?:```|$)/g;

/** The bodies of fenced blocks, in order; the whole text when there is none. */
const blocks = (text: string): string[] => {
  const found = [...text.matchAll(FENCE)].map((m) => m[1] as string);
  return found.length > 0 ? found : [text];
};

/** The first JSON object in a reply: a fenced block, else the outermost braces. */
export const readJsonObject = (text: string): { value: Record<string, unknown> } | { problem: string } => {
  const tries = [...blocks(text)];
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open >= 0 && close > open) tries.push(text.slice(open, close + 1));
  let problem = 'it holds no JSON object';
  for (const t of tries) {
    try {
      const value: unknown = JSON.parse(t);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return { value: value as Record<string, unknown> };
      problem = 'its JSON is not an object';
    } catch (error) {
      problem = `its JSON does not parse (${(error as Error).message})`;
    }
  }
  return { problem };
};

const str = (x: unknown, max: number): string => {
  const s = typeof x === 'string' ? x : x === undefined || x === null ? '' : JSON.stringify(x);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/**
 * Scenarios from a reply: `{"scenarios": [...]}`, each with at least a title or a behavior.
 * Extra scenarios are dropped, fewer are accepted; ids are renumbered S1…Ss.
 */
export const parseScenarios = (
  text: string,
  count: number,
): { scenarios: Scenario[] } | { problem: string } => {
  const read = readJsonObject(text);
  if ('problem' in read) return read;
  const list = read.value.scenarios;
  if (!Array.isArray(list)) return { problem: 'it has no "scenarios" array' };
  const scenarios: Scenario[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const o = item as Record<string, unknown>;
    const title = str(o.title, 80);
    const behavior = str(o.behavior, 2000);
    if (title === '' && behavior === '') continue;
    scenarios.push({
      id: `S${scenarios.length + 1}`,
      title: title || str(behavior, 80),
      category: str(o.category, 300),
      choice: str(o.choice, 300),
      preconditions: str(o.preconditions, 1000),
      behavior,
    });
    if (scenarios.length === count) break;
  }
  if (scenarios.length === 0)
    return { problem: 'its "scenarios" array has no scenario with a title or behavior' };
  return { scenarios };
};

/** Properties as text for later prompts: the JSON pretty-printed when it parses, else the reply. */
export const parseProperties = (text: string): string => {
  const read = readJsonObject(text);
  if ('value' in read) return JSON.stringify(read.value, null, 2);
  return blocks(text)[0]?.trim() ?? '';
};

/** One line of an inputs reply: its arguments, or why it cannot be used. */
export type InputLine =
  | { readonly text: string; readonly args: Args }
  | { readonly text: string; readonly problem: string };

/** Accepted parameter counts of a signature: `(a, b=1, *rest)` → min 1, max ∞. */
export interface Arity {
  readonly min: number;
  readonly max: number;
}

/** Parameter counts from a TypeScript- or Python-style signature; `null` when it cannot tell. */
export const arityOf = (signature: string | undefined): Arity | null => {
  if (!signature) return null;
  const open = signature.indexOf('(');
  if (open < 0) return null;
  let depth = 0;
  let close = -1;
  for (let i = open; i < signature.length; i++) {
    const c = signature[i] as string;
    if ('([{<'.includes(c)) depth++;
    else if (
      ')]}>'.includes(c) &&
      !(c === '>' && signature[i - 1] === '-') &&
      !(c === '>' && signature[i - 1] === '=')
    ) {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close < 0) return null;
  const params: string[] = [];
  let cur = '';
  depth = 0;
  for (const c of signature.slice(open + 1, close)) {
    if ('([{<'.includes(c)) depth++;
    if (')]}>'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      params.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim() !== '') params.push(cur.trim());
  let min = 0;
  let max = 0;
  for (const p of params) {
    if (p === 'self' || p === '/' || p === '*') continue;
    if (p.startsWith('**')) continue;
    if (p.startsWith('*') || p.startsWith('...')) return { min, max: Number.POSITIVE_INFINITY };
    max++;
    if (!/=|^\s*[\w$]+\s*\?\s*:/.test(p)) min = max;
  }
  return { min, max };
};

const describeArity = (a: Arity): string =>
  a.min === a.max
    ? `${a.min}`
    : a.max === Number.POSITIVE_INFINITY
      ? `at least ${a.min}`
      : `${a.min} to ${a.max}`;

const IGNORED = /^(#|\/\/)/;

/** Reads a Python tuple literal `(a, b)`, `(a,)` or bare `a, b` as an argument list, with no eval. */
const pythonArgs = (line: string, entry: string): Args | string => {
  const t = line.trim();
  // `(a, b)` → `entry(a, b)`; `a, b` → `entry(a, b)`: either way a call whose literal arguments are read.
  const wrapped = t.startsWith('(') && balancedParens(t) ? `${entry}${t}` : `${entry}(${t})`;
  const tagged = literalCallArgs(wrapped, entry);
  if (tagged === null)
    return 'not a tuple of Python literals (numbers, strings, True/False/None, lists, tuples and dicts of literals)';
  try {
    return tagged.map((x) => decode(x)) as Args;
  } catch (error) {
    return `a literal that cannot be passed on: ${(error as Error).message}`;
  }
};

/** True when the whole text is one parenthesized group. */
const balancedParens = (t: string): boolean => {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0 && i !== t.length - 1) return false;
    }
  }
  return t.endsWith(')') && depth === 0;
};

const jsonArgs = (line: string): Args | string => {
  let value: unknown;
  try {
    value = JSON.parse(line.trim().replace(/,\s*$/, ''));
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (!Array.isArray(value))
    return `a JSON ${value === null ? 'null' : typeof value}, not an array of arguments`;
  return value as Args;
};

/**
 * The inputs of a reply, one per non-empty line of its first fenced block (the whole reply when it
 * has none). Lines that do not parse, or whose argument count the signature rules out, come back
 * with their problem so the repair step can show it to the model.
 */
export const parseInputs = (
  text: string,
  syntax: 'python' | 'json',
  entry: string,
  arity: Arity | null,
): InputLine[] => {
  const body = blocks(text)[0] ?? '';
  const out: InputLine[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '' || IGNORED.test(line)) continue;
    const args = syntax === 'python' ? pythonArgs(line, entry) : jsonArgs(line);
    if (typeof args === 'string') {
      out.push({ text: line, problem: args });
      continue;
    }
    if (arity && (args.length < arity.min || args.length > arity.max)) {
      out.push({
        text: line,
        problem: `${args.length} argument${args.length === 1 ? '' : 's'}, but \`${entry}\` takes ${describeArity(arity)}`,
      });
      continue;
    }
    try {
      encode(args);
    } catch (error) {
      out.push({ text: line, problem: `cannot be sent to the program: ${(error as Error).message}` });
      continue;
    }
    out.push({ text: line, args });
  }
  return out;
};

const VERDICT_LINE = /^\s*\**\s*VERDICT:\s*\**\s*(CORRECT|INCORRECT)\s*\**\s*$/;

/**
 * A judge's verdict: the last line that is exactly `VERDICT: CORRECT` or `VERDICT: INCORRECT`
 * (markdown bold tolerated), so a verdict quoted earlier (say, from an output) cannot decide.
 * The reasoning before it is the reason. `null` when there is no such line.
 */
export const parseVerdict = (text: string): { verdict: 'CORRECT' | 'INCORRECT'; reason: string } | null => {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = VERDICT_LINE.exec(lines[i] as string);
    if (m) {
      return {
        verdict: m[1] as 'CORRECT' | 'INCORRECT',
        reason: lines.slice(0, i).join('\n').trim(),
      };
    }
  }
  return null;
};
