import { type Node, Parser } from 'acorn';
import { transform } from 'sucrase';
import { type Candidate, fromSources, type SourceCandidate } from '../candidates/index.ts';
import type { Outcome } from '../exec/index.ts';

/**
 * Line coverage for deduplicating review inputs, collected inside the sandbox by running a
 * coverage twin of the candidate through the ordinary runners: the same code plus a wrapper entry
 * that returns `[result, executed lines]`. Nothing in the runners changes, so the twin gets the
 * same confinement, limits and outcome handling as the candidate itself.
 *
 * - Python: `sys.settrace` line events on frames compiled from `<candidate>` (the worker's file
 *   name for candidate code), limited to the candidate's own lines. `sys.monitoring` would be
 *   cheaper but needs 3.12; settrace works on every Python the worker supports.
 * - JavaScript/TypeScript: V8's precise coverage needs the inspector, which the sandbox does not
 *   expose to the host per call; instead the source is instrumented with acorn: a counter call
 *   before every statement inside a function, and around both branches of `?:`, `&&`/`||`/`??`
 *   right operands and arrow expression bodies, so a line set is also a branch signature.
 *
 * A candidate runs in the same interpreter as its twin's tracer, so it could forge its line set.
 * That can only change which inputs are kept as representatives; it cannot change an output or a
 * verdict, and the real outputs come from the candidate itself, run beside the twin.
 */

const ENTRY = '__crosscheck_cov__';
const HIT = '__crosscheck_hit__';

type AnyNode = Node & Record<string, unknown> & { loc: { start: { line: number } } };

const parse = (code: string): AnyNode => {
  const options = {
    ecmaVersion: 'latest',
    allowAwaitOutsideFunction: true,
    allowHashBang: true,
    locations: true,
  } as const;
  try {
    return Parser.parse(code, { ...options, sourceType: 'module' }) as unknown as AnyNode;
  } catch {
    return Parser.parse(code, { ...options, sourceType: 'script' }) as unknown as AnyNode;
  }
};

interface Insert {
  at: number;
  text: string;
  close: boolean;
  depth: number;
}

const isNode = (x: unknown): x is AnyNode =>
  typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const STATEMENT_LISTS: Record<string, string> = {
  BlockStatement: 'body',
  StaticBlock: 'body',
  SwitchCase: 'consequent',
};
const SINGLE_BODIES: Record<string, readonly string[]> = {
  IfStatement: ['consequent', 'alternate'],
  ForStatement: ['body'],
  ForInStatement: ['body'],
  ForOfStatement: ['body'],
  WhileStatement: ['body'],
  DoWhileStatement: ['body'],
  WithStatement: ['body'],
};

/** Instruments JavaScript: returns the code with hit calls, or null when it does not parse. */
export const instrumentJs = (code: string): string | null => {
  let program: AnyNode;
  try {
    program = parse(code);
  } catch {
    return null;
  }
  const inserts: Insert[] = [];
  const hit = (n: AnyNode) => `${HIT}(${n.loc.start.line});`;
  const wrapExpr = (n: AnyNode, depth: number) => {
    inserts.push({ at: n.start, text: `(${HIT}(${n.loc.start.line}), `, close: false, depth });
    inserts.push({ at: n.end, text: ')', close: true, depth });
  };
  const visit = (node: AnyNode, inFunction: boolean, depth: number): void => {
    const inside = inFunction || FUNCTIONS.has(node.type);
    if (inside) {
      const listKey = STATEMENT_LISTS[node.type];
      if (listKey) {
        for (const s of node[listKey] as AnyNode[]) {
          if (s.type === 'ExpressionStatement' && typeof s.directive === 'string') continue;
          inserts.push({ at: s.start, text: hit(s), close: false, depth });
        }
      }
      for (const key of SINGLE_BODIES[node.type] ?? []) {
        const body = node[key];
        if (isNode(body) && body.type !== 'BlockStatement') {
          inserts.push({ at: body.start, text: `{${hit(body)} `, close: false, depth });
          inserts.push({ at: body.end, text: '}', close: true, depth });
        }
      }
      if (node.type === 'ConditionalExpression') {
        wrapExpr(node.consequent as AnyNode, depth + 1);
        wrapExpr(node.alternate as AnyNode, depth + 1);
      }
      if (node.type === 'LogicalExpression') wrapExpr(node.right as AnyNode, depth + 1);
      if (node.type === 'ArrowFunctionExpression' && node.expression)
        wrapExpr(node.body as AnyNode, depth + 1);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc') continue;
      if (Array.isArray(value)) {
        for (const v of value) if (isNode(v)) visit(v, inside, depth + 1);
      } else if (isNode(value)) visit(value, inside, depth + 1);
    }
  };
  visit(program, false, 0);
  // At one offset, closers of inner nodes go first, then openers of outer nodes.
  inserts.sort((a, b) => {
    if (a.at !== b.at) return a.at - b.at;
    if (a.close !== b.close) return a.close ? -1 : 1;
    return a.close ? b.depth - a.depth : a.depth - b.depth;
  });
  let out = '';
  let last = 0;
  for (const ins of inserts) {
    out += code.slice(last, ins.at) + ins.text;
    last = ins.at;
  }
  return out + code.slice(last);
};

const jsTwin = (code: string, entry: string): string => `${code}
;var __crosscheck_cov_lines__ = new Set();
function ${HIT}(line) { __crosscheck_cov_lines__.add(line); }
function ${ENTRY}(...args) {
  __crosscheck_cov_lines__ = new Set();
  var fn = typeof ${entry} === 'function' ? ${entry} : typeof __crosscheck_default__ === 'function' ? __crosscheck_default__ : null;
  if (fn === null) throw new Error('coverage twin: no function ${entry}');
  var result = fn.apply(this, args);
  var lines = function () { return Array.from(__crosscheck_cov_lines__).sort(function (a, b) { return a - b; }); };
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    return result.then(function (v) { return [v, lines()]; });
  }
  return [result, lines()];
}
`;

const pyTwin = (code: string, entry: string): string => {
  const limit = code.split('\n').length;
  return `${code}


def ${ENTRY}(*args):
    import sys as _cc_sys
    _cc_lines = set()

    def _cc_trace(frame, event, arg):
        if frame.f_code.co_filename != "<candidate>":
            return None
        if event == "line" and frame.f_lineno <= ${limit}:
            _cc_lines.add(frame.f_lineno)
        return _cc_trace

    _cc_old = _cc_sys.gettrace()
    _cc_sys.settrace(_cc_trace)
    try:
        _cc_result = ${entry}(*args)
    finally:
        _cc_sys.settrace(_cc_old)
    return [_cc_result, sorted(_cc_lines)]
`;
};

const stripTypes = (code: string): string | null => {
  try {
    return transform(code, { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: true })
      .code;
  } catch {
    return null;
  }
};

/**
 * The coverage twin of a candidate, or null when it has none (functions, commands, code that
 * does not compile): review then deduplicates by input only and says so (`dedup: 'input-key'`).
 */
export const coverageTwin = (candidate: Candidate): SourceCandidate | null => {
  if (candidate.kind !== 'source' || candidate.problem) return null;
  const { language, entry, code } = candidate;
  let twin: string | null;
  if (language === 'python') twin = pyTwin(code, entry);
  else {
    const js = language === 'typescript' ? stripTypes(code) : code;
    const instrumented = js === null ? null : instrumentJs(js);
    twin = instrumented === null ? null : jsTwin(instrumented, entry);
  }
  if (twin === null) return null;
  const [made] = fromSources([twin], {
    language: language === 'python' ? 'python' : 'javascript',
    entry: ENTRY,
    label: `${candidate.label}~coverage`,
  });
  return made && !made.problem ? made : null;
};

/** The executed lines a twin reported with a value, or null (it failed, or returned something else). */
export const twinLines = (outcome: Outcome | undefined): readonly number[] | null => {
  if (outcome?.kind !== 'value') return null;
  const t = outcome.tagged as unknown;
  if (!Array.isArray(t) || t.length !== 2 || !Array.isArray(t[1])) return null;
  const lines = t[1] as unknown[];
  return lines.every((x) => typeof x === 'number' && Number.isInteger(x)) ? (lines as number[]) : null;
};
