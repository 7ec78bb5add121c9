import { CrosscheckError, describeValue } from '../errors/index.ts';
import { mergeShapes, type ObjectProp, type Shape } from './shape.ts';

/**
 * Parses function signatures in TypeScript style, `(xs: number[], k: number) => number`, and
 * Python style, `(xs: List[int], k: int) -> int`, into one {@link Shape} per parameter. The
 * return type is read past, not used.
 */

/** One parsed parameter. */
export interface SignatureParam {
  readonly name: string;
  readonly shape: Shape;
}

const WHERE = 'gen.fromSignature(signature)';

const SUPPORTED =
  'Python: int, float, bool, str, None, Any, list/List, tuple/Tuple (also Tuple[int, ...]), dict/Dict, set/Set, ' +
  'frozenset, Optional, Union, Literal, X | Y; TypeScript: number, string, boolean, bigint, null, undefined, ' +
  'any, unknown, T[], Array<T>, [A, B], Record<K, V>, Map<K, V>, Set<T>, { a: T }, literals, A | B';

const fail = (signature: string, rule: string, got: string, fix: string): never => {
  throw new CrosscheckError(
    'INVALID_OPTION',
    `${WHERE}: ${rule}, got ${got} in ${JSON.stringify(signature)}. ${fix}`,
    {
      where: WHERE,
    },
  );
};

type Token = { kind: 'name' | 'punct' | 'string' | 'number'; text: string; at: number };

const PUNCT = [
  '...',
  '->',
  '=>',
  '**',
  '(',
  ')',
  '[',
  ']',
  '<',
  '>',
  '{',
  '}',
  ',',
  ':',
  '|',
  '?',
  '=',
  ';',
  '*',
  '&',
];

const tokenize = (src: string): Token[] => {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const name = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/.exec(src.slice(i));
    if (name) {
      out.push({ kind: 'name', text: name[0], at: i });
      i += name[0].length;
      continue;
    }
    const num = /^-?\d+(?:\.\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ kind: 'number', text: num[0], at: i });
      i += num[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0)
        fail(src, 'string literals must be closed', `an unclosed ${c} at ${i}`, 'Close the quote.');
      out.push({ kind: 'string', text: src.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    const p = PUNCT.find((q) => src.startsWith(q, i));
    if (!p)
      fail(src, 'the signature must be a parameter list', `the character ${JSON.stringify(c)} at ${i}`, '');
    out.push({ kind: 'punct', text: p as string, at: i });
    i += (p as string).length;
  }
  return out;
};

const ANY_PY: Shape = {
  t: 'union',
  options: [{ t: 'none' }, { t: 'bool' }, { t: 'int' }, { t: 'float' }, { t: 'str' }],
};
const ANY_TS: Shape = {
  t: 'union',
  options: [{ t: 'none' }, { t: 'bool' }, { t: 'number' }, { t: 'str' }],
};

const union = (shapes: Shape[]): Shape => shapes.reduce((a, b) => mergeShapes(a, b));

class Parser {
  private i = 0;
  private param = '';
  constructor(
    private readonly src: string,
    private readonly tokens: Token[],
  ) {}

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  private is(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.kind !== 'string' && t.text === text;
  }
  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t)
      fail(
        this.src,
        'the signature ended too early',
        'the end of the text',
        'Check brackets and parentheses.',
      );
    return t as Token;
  }
  private expect(text: string): void {
    const t = this.next();
    if (t.text !== text) {
      fail(this.src, `expected \`${text}\``, `\`${t.text}\` at ${t.at}`, 'Check brackets and parentheses.');
    }
  }

  parse(): SignatureParam[] {
    if (this.is('async')) this.i++;
    if (this.is('function') || this.is('def')) {
      this.i++;
      if (this.peek()?.kind === 'name') this.i++;
    } else if (this.peek()?.kind === 'name' && this.is('(', 1)) {
      this.i++; // a function name before the parameter list
    }
    if (this.is('<')) this.skipBalanced('<', '>');
    this.expect('(');
    const params: SignatureParam[] = [];
    while (!this.is(')')) {
      params.push(this.parseParam());
      if (!this.is(')')) this.expect(',');
    }
    this.expect(')');
    return params;
  }

  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      const t = this.next();
      if (t.text === open) depth++;
      else if (t.text === close) depth--;
    } while (depth > 0);
  }

  private parseParam(): SignatureParam {
    if (this.is('*') || this.is('**') || this.is('...')) {
      const star = this.next().text;
      fail(
        this.src,
        'variadic parameters are not supported',
        `\`${star}${this.peek()?.text ?? ''}\``,
        'List the parameters one by one, or use gen.fromArbitrary(fc.tuple(...)).',
      );
    }
    const nameToken = this.next();
    if (nameToken.kind !== 'name') {
      fail(this.src, 'each parameter needs a name', `\`${nameToken.text}\` at ${nameToken.at}`, '');
    }
    const name = nameToken.text;
    if (name === 'self') {
      if (this.is(',')) this.i++;
      return this.parseParam();
    }
    this.param = name;
    if (this.is('?')) this.i++;
    if (!this.is(':')) {
      fail(
        this.src,
        `parameter \`${name}\` needs a type annotation`,
        'none',
        `Write it as \`${name}: int\` (Python) or \`${name}: number\` (TypeScript).`,
      );
    }
    this.i++;
    const shape = this.parseType();
    if (this.is('=')) this.skipDefault();
    return { name, shape };
  }

  private skipDefault(): void {
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (!t) return;
      if (depth === 0 && (t.text === ',' || t.text === ')') && t.kind === 'punct') return;
      if (['(', '[', '{'].includes(t.text)) depth++;
      if ([')', ']', '}'].includes(t.text)) depth--;
      this.i++;
    }
  }

  private parseType(): Shape {
    const options = [this.parsePostfix()];
    while (this.is('|')) {
      this.i++;
      options.push(this.parsePostfix());
    }
    return union(options);
  }

  private parsePostfix(): Shape {
    let shape = this.parseAtom();
    while (this.is('[') && this.is(']', 1)) {
      this.i += 2;
      shape = { t: 'list', item: shape };
    }
    return shape;
  }

  private typeArgs(open: string, close: string): Array<Shape | 'ellipsis'> {
    this.expect(open);
    const args: Array<Shape | 'ellipsis'> = [];
    while (!this.is(close)) {
      if (this.is('...')) {
        this.i++;
        args.push('ellipsis');
      } else if (this.is('(') && this.is(')', 1)) {
        this.i += 2; // Tuple[()]
      } else {
        args.push(this.parseType());
      }
      if (!this.is(close)) this.expect(',');
    }
    this.expect(close);
    return args;
  }

  private arity(name: string, args: Array<Shape | 'ellipsis'>, n: number): Shape[] {
    const shapes = args.filter((a): a is Shape => a !== 'ellipsis');
    if (shapes.length !== n || shapes.length !== args.length) {
      fail(
        this.src,
        `\`${name}\` takes ${n} type argument${n === 1 ? '' : 's'}`,
        `${args.length} in parameter \`${this.param}\``,
        `Write ${name}${n === 1 ? '[int]' : '[str, int]'}.`,
      );
    }
    return shapes;
  }

  private parseAtom(): Shape {
    const t = this.next();
    if (t.kind === 'string') return { t: 'literal', value: t.text };
    if (t.kind === 'number') return { t: 'literal', value: Number(t.text) };
    if (t.text === '(') {
      const inner = this.parseType();
      this.expect(')');
      return inner;
    }
    if (t.text === '[') {
      this.i--;
      const items = this.typeArgs('[', ']');
      if (items.includes('ellipsis'))
        fail(this.src, 'TypeScript tuples cannot hold `...`', 'an ellipsis', '');
      return { t: 'tuple', py: false, items: items as Shape[] };
    }
    if (t.text === '{') return this.parseObject();
    if (t.kind !== 'name') {
      return fail(this.src, 'expected a type', `\`${t.text}\` at ${t.at} in parameter \`${this.param}\``, '');
    }
    if (t.text === 'readonly') return this.parsePostfix();
    const name = t.text.split('.').pop() as string;
    const bracket = this.is('[') && !this.is(']', 1) ? '[' : this.is('<') ? '<' : null;
    const args = bracket ? this.typeArgs(bracket, bracket === '[' ? ']' : '>') : null;
    return this.resolve(name, args);
  }

  private parseObject(): Shape {
    const props: ObjectProp[] = [];
    while (!this.is('}')) {
      if (this.is('readonly')) this.i++;
      const key = this.next();
      const optional = this.is('?');
      if (optional) this.i++;
      this.expect(':');
      props.push({ name: key.text, shape: this.parseType(), optional });
      if (this.is(',') || this.is(';')) this.i++;
    }
    this.expect('}');
    return { t: 'object', props };
  }

  private resolve(name: string, args: Array<Shape | 'ellipsis'> | null): Shape {
    const one = (): Shape | null => (args ? (this.arity(name, args, 1)[0] as Shape) : null);
    switch (name) {
      case 'int':
        return { t: 'int' };
      case 'float':
        return { t: 'float' };
      case 'number':
        return { t: 'number' };
      case 'bigint':
        return { t: 'bigint' };
      case 'bool':
      case 'boolean':
        return { t: 'bool' };
      case 'true':
      case 'false':
        return { t: 'literal', value: name === 'true' };
      case 'str':
      case 'string':
        return { t: 'str' };
      case 'None':
      case 'NoneType':
      case 'null':
        return { t: 'none' };
      case 'undefined':
      case 'void':
        return { t: 'undefined' };
      case 'Any':
      case 'object':
        return ANY_PY;
      case 'any':
      case 'unknown':
        return ANY_TS;
      case 'list':
      case 'List':
      case 'Sequence':
      case 'MutableSequence':
      case 'Iterable':
      case 'Collection':
        return { t: 'list', item: one() ?? ANY_PY };
      case 'Array':
      case 'ReadonlyArray':
        return { t: 'list', item: one() ?? ANY_TS };
      case 'tuple':
      case 'Tuple': {
        if (!args) return { t: 'vartuple', item: ANY_PY };
        if (args.length === 2 && args[1] === 'ellipsis' && args[0] !== 'ellipsis') {
          return { t: 'vartuple', item: args[0] as Shape };
        }
        if (args.includes('ellipsis')) {
          fail(
            this.src,
            '`...` is only allowed as Tuple[T, ...]',
            `${name} in parameter \`${this.param}\``,
            '',
          );
        }
        return { t: 'tuple', py: true, items: args as Shape[] };
      }
      case 'dict':
      case 'Dict':
      case 'Mapping':
      case 'MutableMapping':
      case 'Map':
      case 'ReadonlyMap':
      case 'Record': {
        const [key, value] = args ? this.arity(name, args, 2) : [ANY_PY, ANY_PY];
        const kind = name === 'Record' ? 'record' : name.endsWith('Map') ? 'map' : 'pydict';
        return { t: 'dict', kind, key: key as Shape, value: value as Shape };
      }
      case 'set':
      case 'Set':
      case 'AbstractSet':
      case 'MutableSet':
      case 'ReadonlySet':
        return { t: 'set', item: one() ?? ANY_PY, frozen: false };
      case 'frozenset':
      case 'FrozenSet':
        return { t: 'set', item: one() ?? ANY_PY, frozen: true };
      case 'Optional':
        return union([one() as Shape, { t: 'none' }]);
      case 'Union':
        return union((args ?? []).filter((a): a is Shape => a !== 'ellipsis'));
      case 'Literal':
        return union((args ?? []).filter((a): a is Shape => a !== 'ellipsis'));
    }
    return fail(
      this.src,
      `unknown type \`${name}\` in parameter \`${this.param}\``,
      describeValue(name),
      `Supported types: ${SUPPORTED}. For anything else, describe the inputs with gen.fromArbitrary(fc.tuple(...)) or gen.fromJsonSchema(schema).`,
    );
  }
}

/** Parses a signature into its parameters; throws a `CrosscheckError` naming the bad part. */
export const parseSignature = (signature: string): SignatureParam[] => {
  if (typeof signature !== 'string' || signature.trim() === '') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`signature\` must be a non-empty string, got ${describeValue(signature)}. Write e.g. '(xs: List[int], k: int) -> int'.`,
      { where: WHERE },
    );
  }
  return new Parser(signature, tokenize(signature)).parse();
};
