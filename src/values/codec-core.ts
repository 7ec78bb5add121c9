/**
 * The tagged-JSON codec, written as one self-contained factory.
 *
 * Why a factory with no outer references: the very same source is evaluated on the host (to
 * encode inputs and decode results) and inside every sandbox `vm` context (to decode inputs into
 * the context's own realm and encode what a candidate returns). One source means the two sides
 * can never drift, and values created inside a context never carry host-realm prototypes a
 * candidate could climb out through. The factory captures every intrinsic it uses when it is
 * created, before candidate code runs, so a candidate that patches `Array.prototype`, `Map`,
 * `JSON` or `Object.keys` cannot change how its own results are encoded.
 *
 * Keep this function free of imports, module-level helpers and syntax that a bundler would
 * down-level: `createCodec.toString()` must be valid standalone JavaScript.
 */

/** A JSON-compatible tagged value (docs/design.md, "Values"). */
export type Tagged = null | boolean | number | string | Tagged[] | { [key: string]: Tagged };

/** Limits applied while encoding. */
export interface EncodeLimits {
  /** Upper bound on the encoded size (characters of strings plus a few per node). */
  maxBytes: number;
  /** Upper bound on nesting depth. */
  maxDepth: number;
}

/** What {@link createCodec} returns; see `codec.ts` for the host instance and documentation. */
export interface CodecCore {
  Tuple: ArrayConstructor;
  FrozenSet: SetConstructor;
  PyDict: MapConstructor;
  PyFloat: new (value: number) => { readonly value: number; valueOf(): number };
  Complex: new (re: number, im: number) => { readonly re: number; readonly im: number };
  EncodeFailure: new (
    reason: 'unserializable' | 'too-large',
    message: string,
  ) => Error & { reason: 'unserializable' | 'too-large' };
  encode(value: unknown, limits?: Partial<EncodeLimits>): Tagged;
  decode(tagged: Tagged): unknown;
  /** Why a JSON value is not a well-formed tagged value, or null when it is. */
  check(value: unknown): string | null;
  /** Encodes to a JSON string in one pass (the wire form). */
  stringify(value: unknown, limits?: Partial<EncodeLimits>): string;
  /**
   * Whether `value` is an {@link CodecCore.EncodeFailure} this codec threw. A brand check, not
   * `instanceof`: it runs no code of the value (a Proxy's `getPrototypeOf` trap would).
   */
  isEncodeFailure(value: unknown): boolean;
  /**
   * `JSON.stringify` of plain data (arrays, plain objects, primitives) that no `toJSON` on a
   * prototype can hijack: the native one while none is reachable, a walk of own keys otherwise.
   */
  safeJson(data: unknown): string;
}

export function createCodec(): CodecCore {
  const ObjectCtor = Object;
  const getProto = ObjectCtor.getPrototypeOf;
  const setPrototypeOf = ObjectCtor.setPrototypeOf;
  const objectKeys = ObjectCtor.keys;
  const defineProperty = ObjectCtor.defineProperty;
  const isArray = Array.isArray;
  const jsonStringify = JSON.stringify;
  const numberIsInteger = Number.isInteger;
  const numberIsNaN = Number.isNaN;
  // Inside a vm context every global read (even `Infinity` or `NaN`) goes through the
  // contextified global's interceptor, which costs more than the rest of encoding a number.
  const INF = Number.POSITIVE_INFINITY;
  const NEG_INF = Number.NEGATIVE_INFINITY;
  const NOT_A_NUMBER = Number.NaN;
  const NumberCtor = Number;
  const StringCtor = String;
  const BigIntCtor = BigInt;
  const ErrorCtor = Error;
  const MapCtor = Map;
  const SetCtor = Set;
  const DateCtor = Date;
  const Uint8ArrayCtor = Uint8Array;
  // `fn.apply` would look `apply` up on Function.prototype at call time, where a candidate can patch it.
  const reflectApply = Reflect.apply;
  const uncurry =
    <T, A extends unknown[], R>(fn: (this: T, ...args: A) => R) =>
    (self: T, ...args: A): R =>
      reflectApply(fn, self, args) as R;
  const mapForEach = uncurry(
    MapCtor.prototype.forEach as (this: Map<unknown, unknown>, cb: (v: unknown, k: unknown) => void) => void,
  );
  const mapSet = uncurry(
    MapCtor.prototype.set as (this: Map<unknown, unknown>, k: unknown, v: unknown) => Map<unknown, unknown>,
  );
  const setForEach = uncurry(
    SetCtor.prototype.forEach as (this: Set<unknown>, cb: (v: unknown) => void) => void,
  );
  const setAdd = uncurry(SetCtor.prototype.add as (this: Set<unknown>, v: unknown) => Set<unknown>);
  const dateGetTime = uncurry(DateCtor.prototype.getTime as (this: Date) => number);
  const dateToISO = uncurry(DateCtor.prototype.toISOString as (this: Date) => string);
  const strSlice = uncurry(StringCtor.prototype.slice as (this: string, a: number, b?: number) => string);
  const parseIntFn = NumberCtor.parseInt;
  const mapProto = MapCtor.prototype;
  const setProto = SetCtor.prototype;
  const dateProto = DateCtor.prototype;
  const u8Proto = Uint8ArrayCtor.prototype;
  const objectProto = ObjectCtor.prototype;
  const arrayProto = Array.prototype;
  const WeakSetCtor = WeakSet;
  const weakSetAdd = uncurry(
    WeakSetCtor.prototype.add as (this: WeakSet<object>, v: object) => WeakSet<object>,
  );
  const weakSetHas = uncurry(WeakSetCtor.prototype.has as (this: WeakSet<object>, v: object) => boolean);
  /**
   * A fresh array with no prototype while it is filled: writing `a[i]` to an ordinary new array
   * runs any setter a candidate defined on `Array.prototype` or `Object.prototype`, which could
   * throw or rewrite the encoder's output. {@link sealed} gives it its prototype back.
   */
  const fresh = (): unknown[] => setPrototypeOf([], null) as unknown[];
  const sealed = <T>(a: unknown[]): T => setPrototypeOf(a, arrayProto) as T;

  class Tuple extends Array {
    // The implicit constructor spreads its arguments into super(), which goes through
    // Array.prototype[Symbol.iterator]; this one behaves like Array's without that lookup.
    constructor(...items: unknown[]) {
      super();
      if (items.length === 1 && typeof items[0] === 'number') this.length = items[0];
      else for (let i = 0; i < items.length; i++) this[i] = items[i];
    }
  }
  class FrozenSet extends (SetCtor as new (items?: Iterable<unknown> | null) => Set<unknown>) {
    constructor(items?: Iterable<unknown> | null) {
      if (items === undefined || items === null) super();
      else super(items);
    }
  }
  class PyDict extends (MapCtor as new (
    entries?: Iterable<readonly [unknown, unknown]> | null,
  ) => Map<unknown, unknown>) {
    constructor(entries?: Iterable<readonly [unknown, unknown]> | null) {
      if (entries === undefined || entries === null) super();
      else super(entries);
    }
  }
  class PyFloat {
    readonly value: number;
    constructor(value: number) {
      this.value = NumberCtor(value);
    }
    valueOf(): number {
      return this.value;
    }
    toString(): string {
      return numberIsInteger(this.value) ? `${this.value}.0` : StringCtor(this.value);
    }
  }
  class Complex {
    readonly re: number;
    readonly im: number;
    constructor(re: number, im: number) {
      this.re = NumberCtor(re);
      this.im = NumberCtor(im);
    }
  }
  const failures = new WeakSetCtor<object>();
  class EncodeFailure extends ErrorCtor {
    readonly reason: 'unserializable' | 'too-large';
    constructor(reason: 'unserializable' | 'too-large', message: string) {
      super(message);
      this.reason = reason;
      this.name = reason === 'too-large' ? 'OutputTooLarge' : 'Unserializable';
      weakSetAdd(failures, this);
    }
  }
  const isEncodeFailure = (value: unknown): boolean =>
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    weakSetHas(failures, value as object);
  const tupleProto = Tuple.prototype;
  const frozenProto = FrozenSet.prototype;
  const dictProto = PyDict.prototype;
  const pyFloatProto = PyFloat.prototype;
  const complexProto = Complex.prototype;

  const TAGS: Record<string, true> = {
    __proto__: null as never,
    $tuple: true,
    $set: true,
    $frozenset: true,
    $dict: true,
    $map: true,
    $float: true,
    $int: true,
    $bytes: true,
    $complex: true,
    $undefined: true,
    $date: true,
    $object: true,
  };

  const specialFloat = (x: number): Tagged | null => {
    if (numberIsNaN(x)) return 'nan';
    if (x === INF) return 'inf';
    if (x === NEG_INF) return '-inf';
    if (x === 0 && 1 / x < 0) return '-0';
    return null;
  };
  const floatPart = (x: number): Tagged => {
    const s = specialFloat(x);
    return s === null ? x : s;
  };
  const hexDigits = '0123456789abcdef';

  const protoChainHas = (value: object, proto: object): boolean => {
    let p = getProto(value);
    while (p !== null) {
      if (p === proto) return true;
      p = getProto(p);
    }
    return false;
  };
  const isPlainObject = (value: object): boolean => {
    const p = getProto(value);
    // A root prototype: this realm's Object.prototype, another realm's, or none.
    return p === null || p === objectProto || getProto(p) === null;
  };
  const describe = (value: unknown): string => {
    if (typeof value === 'function') return 'a function';
    if (typeof value === 'symbol') return 'a symbol';
    try {
      const p = getProto(value as object);
      const ctor = p && (p as { constructor?: { name?: unknown } }).constructor;
      const name = ctor && typeof ctor.name === 'string' ? ctor.name : 'unknown class';
      return `an instance of ${name}`;
    } catch {
      return 'an object';
    }
  };

  const ownPropertyCheck = ObjectCtor.prototype.hasOwnProperty;
  const ownLimit = (limits: unknown, key: string, fallback: number): number => {
    if (limits === null || typeof limits !== 'object') return fallback;
    if (!reflectApply(ownPropertyCheck, limits, [key])) return fallback;
    const x = (limits as Record<string, unknown>)[key];
    return typeof x === 'number' && x > 0 ? x : fallback;
  };

  // Encoder state lives at factory level so that one encode allocates no closures; encode()
  // saves and restores it, which keeps nested calls (a getter that encodes) correct.
  let budget = 0;
  let limitBytes = 0;
  let limitDepth = 0;
  // Ancestors of the node being encoded, by depth: a cycle is an object that is its own ancestor.
  let path: object[] = [];

  const charge = (n: number): void => {
    budget -= n;
    if (budget < 0) {
      throw new EncodeFailure(
        'too-large',
        `the value is larger than the ${limitBytes}-byte output limit (raise maxOutputBytes to allow it)`,
      );
    }
  };

  const encodePairs = (entries: Array<[unknown, unknown]>, depth: number): Tagged[] => {
    const out = fresh();
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as [unknown, unknown];
      out[i] = [enc(e[0], depth), enc(e[1], depth)];
    }
    return sealed(out);
  };

  const enc = (v: unknown, depth: number): Tagged => {
    budget -= 4;
    if (budget < 0) charge(0);
    switch (typeof v) {
      case 'string':
        charge(v.length);
        return v;
      case 'number': {
        const s = specialFloat(v);
        return s === null ? v : { $float: s };
      }
      case 'boolean':
        return v;
      case 'undefined':
        return { $undefined: true };
      case 'bigint': {
        const digits = StringCtor(v);
        charge(digits.length);
        return { $int: digits };
      }
      case 'function':
      case 'symbol':
        throw new EncodeFailure(
          'unserializable',
          `the value contains ${describe(v)}, which has no data form`,
        );
    }
    if (v === null) return null;
    const o = v as object;
    if (depth >= limitDepth) {
      throw new EncodeFailure('unserializable', `the value is nested deeper than ${limitDepth} levels`);
    }
    for (let j = 0; j < depth; j++) {
      if (path[j] === o) {
        throw new EncodeFailure(
          'unserializable',
          'the value contains a cycle (an object that contains itself)',
        );
      }
    }
    path[depth] = o;
    const d = depth + 1;
    if (isArray(o)) {
      const a = o as unknown[];
      const n = a.length;
      charge(n);
      const out = fresh();
      // Arrays of plain numbers are the most common result; copy them without a call per item.
      let i = 0;
      for (; i < n; i++) {
        const x = a[i];
        if (typeof x !== 'number' || numberIsNaN(x) || x === INF || x === NEG_INF || (x === 0 && 1 / x < 0))
          break;
        out[i] = x;
      }
      charge(i * 4);
      for (; i < n; i++) out[i] = enc(a[i], d);
      return getProto(o) === tupleProto ? { $tuple: sealed(out) } : sealed(out);
    }
    const p = getProto(o);
    if (p === pyFloatProto) {
      return { $float: floatPart((o as PyFloat).value) };
    }
    if (p === complexProto) {
      return { $complex: [floatPart((o as Complex).re), floatPart((o as Complex).im)] };
    }
    if (p === mapProto || p === dictProto) {
      const entries = fresh() as Array<[unknown, unknown]>;
      let i = 0;
      mapForEach(o as Map<unknown, unknown>, (val, key) => {
        entries[i++] = [key, val];
      });
      return p === dictProto ? { $dict: encodePairs(entries, d) } : { $map: encodePairs(entries, d) };
    }
    if (p === setProto || p === frozenProto) {
      const out = fresh();
      let i = 0;
      setForEach(o as Set<unknown>, (val) => {
        out[i++] = enc(val, d);
      });
      return p === frozenProto ? { $frozenset: sealed(out) } : { $set: sealed(out) };
    }
    if (p === dateProto) {
      const t = dateGetTime(o as Date);
      return { $date: numberIsNaN(t) ? null : dateToISO(o as Date) };
    }
    if (p !== null && (p === u8Proto || protoChainHas(o, u8Proto))) {
      const bytes = o as Uint8Array;
      charge(bytes.length * 2);
      let hex = '';
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i] as number;
        hex += hexDigits[b >> 4]! + hexDigits[b & 15]!;
      }
      return { $bytes: hex };
    }
    if (isPlainObject(o)) {
      const keys = objectKeys(o);
      const out: { [key: string]: Tagged } = {};
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        charge(k.length);
        defineProperty(out, k, {
          value: enc((o as Record<string, unknown>)[k], d),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (keys.length === 1 && TAGS[keys[0] as string] === true) {
        const k = keys[0] as string;
        return { $object: [[k, out[k] as Tagged]] };
      }
      return out;
    }
    throw new EncodeFailure(
      'unserializable',
      `the value contains ${describe(o)}; return plain data (numbers, strings, arrays, plain objects, Map, Set)`,
    );
  };

  function encode(value: unknown, rawLimits?: Partial<EncodeLimits>): Tagged {
    // Saved in plain variables: array destructuring would go through a patchable Symbol.iterator.
    const savedBudget = budget;
    const savedLimitBytes = limitBytes;
    const savedLimitDepth = limitDepth;
    const savedPath = path;
    // Own properties only: a polluted `Object.prototype.maxDepth` must not lift a limit.
    limitBytes = ownLimit(rawLimits, 'maxBytes', 16 * 1024 * 1024);
    limitDepth = ownLimit(rawLimits, 'maxDepth', 1000);
    budget = limitBytes;
    path = fresh() as object[];
    try {
      return enc(value, 0);
    } finally {
      budget = savedBudget;
      limitBytes = savedLimitBytes;
      limitDepth = savedLimitDepth;
      path = savedPath;
    }
  }

  const floatValue = (x: Tagged): number => {
    if (typeof x === 'number') return x;
    switch (x) {
      case 'nan':
        return NOT_A_NUMBER;
      case 'inf':
        return INF;
      case '-inf':
        return NEG_INF;
      case '-0':
        return -0;
    }
    return NumberCtor(x);
  };

  /** Deepest tagged value {@link check} accepts: past the encoder's default with room for tags. */
  const MAX_DECODE_DEPTH = 2100;
  const HEX = /^(?:[0-9a-fA-F]{2})*$/;
  const INT = /^-?[0-9]+$/;
  const regexTest = uncurry(RegExp.prototype.test as (this: RegExp, s: string) => boolean);
  const isFloatPart = (x: unknown): boolean =>
    typeof x === 'number' || x === 'nan' || x === 'inf' || x === '-inf' || x === '-0';

  /**
   * A part of a `$complex`: a float as in `$float`'s body (what every encoder writes), or one
   * tagged `{"$float": x}` (a dataset that tags every Python float, as its format says, tags
   * the parts of a complex too). Both mean the same float.
   */
  const complexPart = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object' || isArray(x)) return x;
    const keys = objectKeys(x);
    return keys.length === 1 && keys[0] === '$float' ? (x as { $float: unknown }).$float : undefined;
  };

  /**
   * Why a JSON value is not a well-formed tagged value, or null when it is. Everything a worker
   * sends goes through this before the host decodes, prepares or compares it: valid JSON is not
   * enough (`{"$tuple": 5}` would make every later reader throw), so each tag's body is checked,
   * and nesting is bounded so that no recursive reader can overflow the stack.
   */
  // Plain functions, not closures per node: the host checks every value a worker sends.
  function checkValues(x: unknown, d: number): string | null {
    if (!isArray(x)) return 'a tag whose body is not a list';
    const a = x as unknown[];
    for (let i = 0; i < a.length; i++) {
      const item = a[i];
      // Numbers and strings are most of any output: no call for them.
      if (typeof item === 'string' || (typeof item === 'number' && item - item === 0)) continue;
      const why = check(item, d);
      if (why !== null) return why;
    }
    return null;
  }

  function checkPairs(x: unknown, stringKeys: boolean, d: number): string | null {
    if (!isArray(x)) return 'a tag whose body is not a list';
    const a = x as unknown[];
    for (let i = 0; i < a.length; i++) {
      const item = a[i];
      if (!isArray(item) || (item as unknown[]).length !== 2) return 'a pair that is not a 2-item list';
      const pair = item as unknown[];
      if (stringKeys && typeof pair[0] !== 'string') return 'an $object key that is not a string';
      const why = check(pair[0], d) ?? check(pair[1], d);
      if (why !== null) return why;
    }
    return null;
  }

  function check(t: unknown, depth = 0): string | null {
    if (t === null || typeof t === 'boolean' || typeof t === 'string') return null;
    if (typeof t === 'number')
      return !numberIsNaN(t) && t !== INF && t !== NEG_INF ? null : 'a non-finite number';
    if (typeof t !== 'object') return `a ${typeof t}`;
    if (depth > MAX_DECODE_DEPTH) return `nesting deeper than ${MAX_DECODE_DEPTH} levels`;
    const d = depth + 1;
    if (isArray(t)) return checkValues(t, d);
    const keys = objectKeys(t);
    if (keys.length === 1 && TAGS[keys[0] as string] === true) {
      const tag = keys[0] as string;
      const body = (t as Record<string, unknown>)[tag];
      switch (tag) {
        case '$tuple':
        case '$set':
        case '$frozenset':
          return checkValues(body, d);
        case '$dict':
        case '$map':
          return checkPairs(body, false, d);
        case '$object':
          return checkPairs(body, true, d);
        case '$float':
          return isFloatPart(body) ? null : 'a $float that is not a number, nan, inf, -inf or -0';
        case '$int':
          return typeof body === 'string' && regexTest(INT, body)
            ? null
            : 'an $int that is not a decimal string';
        case '$bytes':
          return typeof body === 'string' && regexTest(HEX, body) ? null : '$bytes that are not hex pairs';
        case '$complex':
          return isArray(body) &&
            (body as unknown[]).length === 2 &&
            isFloatPart(complexPart((body as unknown[])[0])) &&
            isFloatPart(complexPart((body as unknown[])[1]))
            ? null
            : 'a $complex that is not a pair of floats (numbers, "nan", "inf", "-inf", "-0", or {"$float": one of those})';
        case '$undefined':
          return body === true ? null : 'an $undefined whose body is not true';
        case '$date':
          return body === null || typeof body === 'string' ? null : 'a $date that is not a string or null';
      }
    }
    for (let i = 0; i < keys.length; i++) {
      const why = check((t as Record<string, unknown>)[keys[i] as string], d);
      if (why !== null) return why;
    }
    return null;
  }

  // Sets and maps store -0 as +0, which would go back to Python as the int 0: box it.
  const keyOf = (x: unknown): unknown => (x === 0 && 1 / (x as number) < 0 ? new PyFloat(-0) : x);

  /**
   * Decodes a tagged value that is known to be well formed (the host's inputs, or one that passed
   * {@link check}); the host's public `decode` checks first.
   */
  function decode(t: Tagged): unknown {
    if (t === null || typeof t !== 'object') return t;
    if (isArray(t)) {
      const out: unknown[] = [];
      for (let i = 0; i < t.length; i++) out[i] = decode(t[i] as Tagged);
      return out;
    }
    const keys = objectKeys(t);
    if (keys.length === 1 && TAGS[keys[0] as string] === true) {
      const body = t[keys[0] as string] as Tagged;
      switch (keys[0]) {
        case '$tuple': {
          const items = body as Tagged[];
          const out = new Tuple();
          for (let i = 0; i < items.length; i++) out[i] = decode(items[i] as Tagged);
          return out;
        }
        case '$set':
        case '$frozenset': {
          const out = keys[0] === '$set' ? new SetCtor() : new FrozenSet();
          const items = body as Tagged[];
          for (let i = 0; i < items.length; i++) setAdd(out, keyOf(decode(items[i] as Tagged)));
          return out;
        }
        case '$dict':
        case '$map': {
          const out = keys[0] === '$map' ? new MapCtor() : new PyDict();
          const items = body as Tagged[][];
          for (let i = 0; i < items.length; i++) {
            const pair = items[i] as Tagged[];
            mapSet(out, keyOf(decode(pair[0] as Tagged)), decode(pair[1] as Tagged));
          }
          return out;
        }
        case '$float': {
          const x = floatValue(body);
          // An integral float would come back as a JS integer and re-encode as a Python int:
          // box it so that 4.0 stays a float. Non-integral and special floats are unambiguous.
          return numberIsInteger(x) && !(x === 0 && 1 / x < 0) ? new PyFloat(x) : x;
        }
        case '$int':
          return BigIntCtor(body as string);
        case '$bytes': {
          const hex = body as string;
          const out = new Uint8ArrayCtor(hex.length >> 1);
          for (let i = 0; i < out.length; i++) {
            out[i] = parseIntFn(strSlice(hex, 2 * i, 2 * i + 2), 16);
          }
          return out;
        }
        case '$complex': {
          const parts = body as Tagged[];
          return new Complex(
            floatValue(complexPart(parts[0]) as Tagged),
            floatValue(complexPart(parts[1]) as Tagged),
          );
        }
        case '$undefined':
          return void 0;
        case '$date':
          return new DateCtor(body === null ? NOT_A_NUMBER : (body as string));
        case '$object': {
          const out: Record<string, unknown> = {};
          const items = body as Tagged[][];
          for (let i = 0; i < items.length; i++) {
            const pair = items[i] as Tagged[];
            defineProperty(out, pair[0] as string, {
              value: decode(pair[1] as Tagged),
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          return out;
        }
      }
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      defineProperty(out, k, {
        value: decode(t[k] as Tagged),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  const hasOwn = uncurry(ObjectCtor.prototype.hasOwnProperty as (this: object, k: PropertyKey) => boolean);
  const toJsonReachable = (): boolean =>
    'toJSON' in objectProto || 'toJSON' in arrayProto || getProto(arrayProto) !== objectProto;

  function walkJson(x: unknown): string {
    if (x === null || typeof x !== 'object') {
      const s = jsonStringify(x);
      return s === undefined ? 'null' : s;
    }
    if (isArray(x)) {
      const a = x as unknown[];
      let out = '[';
      for (let i = 0; i < a.length; i++) out += (i === 0 ? '' : ',') + walkJson(a[i]);
      return `${out}]`;
    }
    const keys = objectKeys(x);
    let out = '{';
    let first = true;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      if (!hasOwn(x, k)) continue;
      out += `${first ? '' : ','}${jsonStringify(k)}:${walkJson((x as Record<string, unknown>)[k])}`;
      first = false;
    }
    return `${out}}`;
  }

  function safeJson(data: unknown): string {
    return toJsonReachable() ? walkJson(data) : jsonStringify(data);
  }

  function stringify(value: unknown, limits?: Partial<EncodeLimits>): string {
    return safeJson(encode(value, limits));
  }

  return {
    Tuple: Tuple as unknown as ArrayConstructor,
    FrozenSet: FrozenSet as unknown as SetConstructor,
    PyDict: PyDict as unknown as MapConstructor,
    PyFloat,
    Complex,
    EncodeFailure,
    isEncodeFailure,
    encode,
    decode,
    check,
    stringify,
    safeJson,
  };
}
