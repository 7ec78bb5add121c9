import { type Node, Parser } from 'acorn';
import { transform } from 'sucrase';

/**
 * Turns JavaScript or TypeScript source into a function body the sandbox can evaluate, and finds
 * problems a user should hear about before anything runs.
 *
 * The sandbox evaluates scripts, not modules, so ESM export syntax is rewritten in place (same
 * line numbers): `export function f` loses its `export`, `export default x` binds a private
 * name, `export { a as f }` becomes an alias. CommonJS (`module.exports = f`) works as written
 * because the wrapper provides `module` and `exports`. The entry is resolved at run time, in
 * this order: a top-level binding named like the entry, `module.exports` (a function, or an
 * object holding the entry or `default`), the default export.
 */

export interface PreparedJs {
  /** Source of a function expression `(function (module, exports) { ... })` returning the entry. */
  readonly wrapper: string;
  /** Names of the top-level functions, each once, in source order: for an EntryNotFound message. */
  readonly functions: readonly string[];
}

export interface PrepareProblem {
  readonly name: 'CompileError' | 'EntryNotFound';
  readonly message: string;
}

const DEFAULT_BINDING = '__crosscheck_default__';

type AnyNode = Node & Record<string, unknown>;

const stripTypes = (code: string): string =>
  transform(code, { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: true }).code;

const parse = (code: string): AnyNode => {
  const options = { ecmaVersion: 'latest', allowAwaitOutsideFunction: true, allowHashBang: true } as const;
  try {
    return Parser.parse(code, { ...options, sourceType: 'module' }) as unknown as AnyNode;
  } catch (moduleError) {
    try {
      // Sloppy-mode scripts (`with`, octal literals) are valid candidates too.
      return Parser.parse(code, { ...options, sourceType: 'script' }) as unknown as AnyNode;
    } catch {
      throw moduleError;
    }
  }
};

const blank = (code: string, start: number, end: number): string =>
  code.slice(0, start) + code.slice(start, end).replace(/[^\n]/g, ' ') + code.slice(end);

/** Prepares a JS/TS candidate; returns a problem instead of throwing for bad code. */
export const prepareJs = (
  source: string,
  language: 'javascript' | 'typescript',
  entry: string,
): PreparedJs | PrepareProblem => {
  let code = source;
  if (language === 'typescript') {
    try {
      code = stripTypes(source);
    } catch (error) {
      return {
        name: 'CompileError',
        message: `TypeScript could not be stripped: ${(error as Error).message}`,
      };
    }
  }
  let program: AnyNode;
  try {
    program = parse(code);
  } catch (error) {
    return { name: 'CompileError', message: (error as Error).message };
  }
  const dynamicImport = findImport(program, 0);
  if (dynamicImport) return dynamicImport;
  const functions: string[] = [];
  const aliases: string[] = [];
  // Edits go right to left so earlier offsets stay valid.
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const node of program.body as AnyNode[]) {
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration': {
        const from = (node.source as { value?: unknown }).value;
        return {
          name: 'CompileError',
          message: `imports are not available in the sandbox (the candidate imports ${JSON.stringify(from)}); candidates must be self-contained`,
        };
      }
      case 'ExportNamedDeclaration': {
        const decl = node.declaration as AnyNode | null;
        if (decl) {
          collectFunctions(decl, functions);
          edits.push({ start: node.start, end: decl.start, text: '' });
        } else {
          if (node.source) {
            return {
              name: 'CompileError',
              message: 're-exports from other modules are not available in the sandbox',
            };
          }
          for (const spec of node.specifiers as AnyNode[]) {
            const local = (spec.local as { name: string }).name;
            const exported = spec.exported as { name?: string; value?: string };
            const name = exported.name ?? exported.value ?? local;
            if (name === 'default') aliases.push(`var ${DEFAULT_BINDING} = ${local};`);
            else if (name !== local) aliases.push(`var ${name} = ${local};`);
          }
          edits.push({ start: node.start, end: node.end, text: '' });
        }
        break;
      }
      case 'ExportDefaultDeclaration': {
        const decl = node.declaration as AnyNode;
        const named = (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') && decl.id;
        if (named) {
          collectFunctions(decl, functions);
          edits.push({ start: node.start, end: decl.start, text: '' });
          aliases.push(`var ${DEFAULT_BINDING} = ${(decl.id as { name: string }).name};`);
        } else {
          edits.push({ start: node.start, end: decl.start, text: `var ${DEFAULT_BINDING} = ` });
          if (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') {
            // `export default function () {}` is a declaration without a name; as an expression it is valid.
            edits.push({ start: node.end, end: node.end, text: ';' });
          }
        }
        break;
      }
      default:
        collectFunctions(node, functions);
    }
  }
  // A hashbang is valid only at the very start of a script: inside the wrapper it is blanked.
  if (code.startsWith('#!')) {
    const lineEnd = code.indexOf('\n');
    edits.push({ start: 0, end: lineEnd < 0 ? code.length : lineEnd, text: '' });
  }
  let body = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    body = e.text === '' ? blank(body, e.start, e.end) : body.slice(0, e.start) + e.text + body.slice(e.end);
  }
  const id = JSON.stringify(entry);
  const wrapper = `${WRAPPER_HEAD}${body}\n;${aliases.join('\n')}
return {
  named: (function () { try { return typeof ${safeIdentifier(entry)} === 'undefined' ? undefined : ${safeIdentifier(entry)}; } catch (e) { return undefined; } })(),
  exported: module.exports,
  entry: ${id},
  byDefault: typeof ${DEFAULT_BINDING} === 'undefined' ? undefined : ${DEFAULT_BINDING},
};
})`;
  const asRun = checkAsRun(wrapper);
  return asRun ?? { wrapper, functions };
};

const WRAPPER_HEAD = '(function (module, exports) {\n';

/** The problem of an `import()` or `import.meta` in `program`, at its offset in the candidate's code. */
const findImport = (program: AnyNode, shift: number): PrepareProblem | null => {
  const found = findNode(
    program,
    (n) =>
      n.type === 'ImportExpression' ||
      (n.type === 'MetaProperty' && (n.meta as { name?: string }).name === 'import'),
  );
  return found
    ? {
        name: 'CompileError',
        message: `import() and import.meta are not available in the sandbox (at offset ${found.start - shift}); candidates must be self-contained`,
      }
    : null;
};

/**
 * Checks the wrapper as V8 compiles it: a sloppy script, the candidate inside a function. The
 * first parse may read the candidate as a module, where the same text can mean something else:
 * `typeof await /x(import('y'))/g` is a regular expression in a module and a real `import()`
 * in a script, where `await` is a plain name. What runs is what is checked.
 */
const checkAsRun = (wrapper: string): PrepareProblem | null => {
  let program: AnyNode;
  try {
    program = Parser.parse(wrapper, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as AnyNode;
  } catch (error) {
    // acorn ends its message with the wrapper's (line:column); the candidate's line is one less.
    const { loc } = error as { loc?: { line: number; column: number } };
    const what = (error as Error).message.replace(/ \(\d+:\d+\)$/, '');
    const where = loc ? ` (line ${loc.line - 1}, column ${loc.column + 1})` : '';
    return {
      name: 'CompileError',
      message: `the candidate does not compile as the sandbox runs it, a script inside a function, where top-level await and other module-only syntax are not available: ${what}${where}`,
    };
  }
  return findImport(program, WRAPPER_HEAD.length);
};

/** Depth-first search of an ESTree for the first node matching. */
const findNode = (root: AnyNode, match: (n: AnyNode) => boolean): AnyNode | undefined => {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      for (const item of x) stack.push(item);
    } else if (x !== null && typeof x === 'object' && typeof (x as AnyNode).type === 'string') {
      const node = x as AnyNode;
      if (match(node)) return node;
      for (const key of Object.keys(node)) {
        const child = node[key];
        if (child !== null && typeof child === 'object') stack.push(child);
      }
    }
  }
  return undefined;
};

const IDENT = /^[A-Za-z_$][\w$]*$/;
// Valid Python names and valid property names (`exports.delete = f`), but no JS binding can have
// them: `typeof delete` would not compile, so such an entry is only looked up on the exports.
const RESERVED = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if implements import in instanceof interface let new null package private ' +
    'protected public return static super switch this throw true try typeof var void while with yield'
  ).split(' '),
);
const safeIdentifier = (name: string): string =>
  IDENT.test(name) && !RESERVED.has(name) ? name : 'undefined';

/** Adds the functions a top-level statement defines to `out`, skipping names already there (redeclarations). */
const collectFunctions = (node: AnyNode, out: string[]): void => {
  const add = (name: string): void => {
    if (!out.includes(name)) out.push(name);
  };
  if (node.type === 'FunctionDeclaration' && node.id) add((node.id as { name: string }).name);
  if (node.type === 'VariableDeclaration') {
    for (const d of node.declarations as AnyNode[]) {
      const init = d.init as AnyNode | null;
      const id = d.id as { type: string; name?: string };
      if (id.type === 'Identifier' && init && /Function|Arrow/.test(init.type)) add(id.name as string);
    }
  }
};

/** True when the value is a problem rather than prepared code. */
export const isProblem = (x: PreparedJs | PrepareProblem): x is PrepareProblem => 'name' in x;
