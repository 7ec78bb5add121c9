import { checkKeys, knownKeys } from '../errors/index.ts';

/**
 * Text from a candidate (a returned string, an exception's message, a label a model chose) is
 * shown to people: in a terminal, a test failure, a Markdown job summary, an HTML page. A
 * terminal acts on some characters instead of showing them: ESC starts a sequence that can move
 * the cursor, rewrite lines already printed, retitle the window or (in some terminals) paste
 * text; CR returns to the start of a line so what follows overwrites it; BEL rings. The C1
 * controls (U+0080 to U+009F) do the same as ESC sequences in terminals that honour them, and the
 * bidirectional overrides and isolates reorder what is printed, so a line can read differently
 * from what it holds. Each of these is replaced by a visible escape (`\x1b`, `\u202e`), so the
 * text shows what the candidate produced and can do nothing else.
 */

/**
 * Whether a UTF-16 code unit is one a terminal or viewer may act on: C0 controls except tab (and
 * line feed, unless `newline`), DEL, C1 controls, the Arabic letter mark, zero-width and
 * directional marks, line and paragraph separators, bidi embeddings, overrides and isolates,
 * invisible operators and the byte-order mark.
 */
const acts = (code: number, newline: boolean): boolean =>
  code < 0x20
    ? code !== 0x09 && (code !== 0x0a || newline)
    : code < 0x7f
      ? false
      : code <= 0x9f ||
        code === 0x061c ||
        (code >= 0x200b && code <= 0x200f) ||
        code === 0x2028 ||
        code === 0x2029 ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2060 && code <= 0x2069 && code !== 0x2065) ||
        code === 0xfeff;

/** `text` with each character `acts` says a terminal acts on replaced by `toText(code)`. */
const replaceActing = (text: string, newline: boolean, toText: (code: number) => string): string => {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!acts(code, newline)) continue;
    out += text.slice(from, i) + toText(code);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
};

const hex = (code: number, digits: number): string => code.toString(16).padStart(digits, '0');

const visible = (code: number): string =>
  code === 0x0a ? '\\n' : code === 0x0d ? '\\r' : code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;

/** Options of {@link neutralizeControls}. @public */
export interface NeutralizeOptions {
  /** Keep line feeds as line breaks (for multi-line text); by default they become `\n` too. */
  readonly newlines?: boolean;
}

const NO_OPTIONS: NeutralizeOptions = Object.freeze({});
const NEUTRALIZE_KEYS = knownKeys<NeutralizeOptions>({ newlines: true });

/**
 * `text` with every character a terminal or viewer would act on instead of showing (ESC, BEL,
 * CR and the other C0 and C1 controls, DEL, bidirectional overrides and isolates, zero-width
 * marks) replaced by a visible escape such as `\x1b` or `\u202e`. Tabs stay; line feeds stay
 * only with `newlines: true`. Text without such characters is returned as it is.
 * @public
 */
export const neutralizeControls = (text: string, options: NeutralizeOptions = NO_OPTIONS): string => {
  if (options !== NO_OPTIONS)
    checkKeys({ where: 'neutralizeControls(text, options)' }, options, NEUTRALIZE_KEYS);
  return replaceActing(text, options.newlines !== true, visible);
};

/**
 * A copy of plain data (objects, arrays, primitives, as in a report or a record) with every
 * string, keys included, passed through {@link neutralizeControls} with `options`. Anything that
 * is not a plain object or array is kept as it is.
 */
export const neutralizeDeep = <T>(value: T, options: NeutralizeOptions = {}): T => {
  if (typeof value === 'string') return neutralizeControls(value, options) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((x) => neutralizeDeep(x, options)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // Defined, not assigned: a key `__proto__` stays a key.
    Object.defineProperty(out, neutralizeControls(k, options), {
      value: neutralizeDeep(v, options),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
};

/**
 * JSON text with the characters {@link neutralizeControls} names written as `\uXXXX` escapes.
 * `JSON.stringify` already escapes the C0 controls; the others can only stand inside strings,
 * where the escape means the same character, so the data is unchanged.
 */
export const escapeJsonControls = (json: string): string =>
  replaceActing(json, false, (code) => `\\u${hex(code, 4)}`);
