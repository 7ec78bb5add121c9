import type { Tagged } from '../values/index.ts';

/**
 * The arguments of a call written in a Python test, as tagged values: MBPP keeps a task's inputs
 * only in `test_list` assertions (`assert similar_elements((3, 4, 5, 6), (5, 7, 4, 10)) == (4, 5)`),
 * so this reads the literal arguments of the first call to the entry. Only literals are read
 * (numbers, complex numbers as `2j` or `1+2j`, strings, True/False/None, lists, tuples, dicts
 * with literal keys); anything else
 * (a variable, an expression, a nested call) makes the whole call unreadable, and the caller
 * says so instead of guessing.
 */

class Unreadable extends Error {}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

class Reader {
  i = 0;
  constructor(readonly text: string) {}

  skip(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i] as string)) this.i++;
  }

  eat(c: string): boolean {
    this.skip();
    if (this.text.startsWith(c, this.i)) {
      this.i += c.length;
      return true;
    }
    return false;
  }

  value(): Tagged {
    this.skip();
    const c = this.text[this.i];
    if (c === '[') return this.sequence('[', ']');
    if (c === '(') {
      const items = this.sequence('(', ')', true);
      return items;
    }
    if (c === '{') return this.dict();
    if (c === "'" || c === '"') return this.string();
    const word = /^(True|False|None)\b/.exec(this.text.slice(this.i));
    if (word) {
      this.i += (word[1] as string).length;
      return word[1] === 'None' ? null : word[1] === 'True';
    }
    const num = /^[-+]?(\d[\d_]*)?(\.\d*)?([eE][-+]?\d+)?/.exec(this.text.slice(this.i));
    if (num && num[0] !== '' && /\d/.test(num[0])) {
      this.i += num[0].length;
      const text = num[0].replace(/_/g, '');
      // `2j` is imaginary; `1+2j` and `1-2j` (a real and an imaginary literal) are one complex.
      if (/[jJ]/.test(this.text[this.i] ?? '')) {
        this.i++;
        return { $complex: [0, Number(text)] };
      }
      const imaginary = /^\s*([-+])\s*((?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?)[jJ]/.exec(
        this.text.slice(this.i),
      );
      if (imaginary && /\d/.test(imaginary[2] as string)) {
        this.i += imaginary[0].length;
        const im = Number((imaginary[2] as string).replace(/_/g, ''));
        return { $complex: [Number(text), imaginary[1] === '-' ? -im : im] };
      }
      if (num[2] !== undefined || num[3] !== undefined) return { $float: Number(text) };
      const big = BigInt(text);
      return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(big)
        : { $int: big.toString() };
    }
    throw new Unreadable();
  }

  sequence(open: string, close: string, tuple = false): Tagged {
    this.eat(open);
    const items: Tagged[] = [];
    let comma = false;
    while (!this.eat(close)) {
      if (items.length > 0 && !comma) throw new Unreadable();
      items.push(this.value());
      comma = this.eat(',');
    }
    // `(x)` is x; `(x,)` and `()` are tuples.
    if (tuple && items.length === 1 && !comma) return items[0] as Tagged;
    return tuple ? { $tuple: items } : items;
  }

  dict(): Tagged {
    this.eat('{');
    const pairs: Tagged[] = [];
    let comma = false;
    while (!this.eat('}')) {
      if (pairs.length > 0 && !comma) throw new Unreadable();
      const key = this.value();
      if (!this.eat(':')) throw new Unreadable();
      pairs.push([key, this.value()]);
      comma = this.eat(',');
    }
    return { $dict: pairs };
  }

  string(): string {
    const quote = this.text[this.i] as string;
    this.i++;
    let out = '';
    while (this.i < this.text.length) {
      const c = this.text[this.i++] as string;
      if (c === quote) return out;
      if (c === '\\') {
        const e = this.text[this.i++] as string;
        const simple = SIMPLE_ESCAPES[e];
        if (simple === undefined) throw new Unreadable();
        out += simple;
      } else out += c;
    }
    throw new Unreadable();
  }
}

/**
 * The literal arguments of the first `entry(...)` call in `code`, as a tagged argument list, or
 * null when there is no such call or an argument is not a literal.
 * @internal
 */
export const literalCallArgs = (code: string, entry: string): Tagged[] | null => {
  const match = new RegExp(`(?<![\\w.])${entry}\\s*\\(`).exec(code);
  if (!match) return null;
  const reader = new Reader(code);
  reader.i = match.index + match[0].length;
  try {
    const args: Tagged[] = [];
    let comma = true;
    while (!reader.eat(')')) {
      if (!comma) return null;
      args.push(reader.value());
      comma = reader.eat(',');
    }
    return args;
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
};
