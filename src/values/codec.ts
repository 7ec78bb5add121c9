import { CrosscheckError, checkKeys } from '../errors/index.ts';
import { createCodec, type EncodeLimits, type Tagged } from './codec-core.ts';

const core = createCodec();

/**
 * A Python tuple. An `Array` subclass, so JavaScript code indexes it as usual; it encodes as
 * `$tuple`, so a tuple decoded from Python goes back to Python as a tuple.
 * @public
 */
export const Tuple = core.Tuple;
/** @public */
export type Tuple<T = unknown> = T[];

/** A Python `frozenset` (a `Set` subclass that encodes as `$frozenset`). @public */
export const FrozenSet = core.FrozenSet;
/** @public */
export type FrozenSet<T = unknown> = Set<T>;

/** A Python `dict` (a `Map` subclass that keeps key order and any keys; encodes as `$dict`). @public */
export const PyDict = core.PyDict;
/** @public */
export type PyDict<K = unknown, V = unknown> = Map<K, V>;

/**
 * A Python float whose value is integral (4.0). Without the box it would decode to the JS number 4
 * and go back to Python as the int 4. Non-integral and non-finite floats decode to plain numbers.
 * Arithmetic works through `valueOf()`.
 * @public
 */
export const PyFloat = core.PyFloat;
/** @public */
export type PyFloat = InstanceType<typeof core.PyFloat>;

/** A Python `complex` number. @public */
export const Complex = core.Complex;
/** @public */
export type Complex = InstanceType<typeof core.Complex>;

export type { EncodeLimits, Tagged };

/** Builds a tuple from its items. @public */
export const tuple = <T>(...items: T[]): Tuple<T> => {
  const t = new Tuple() as T[];
  for (let i = 0; i < items.length; i++) t[i] = items[i] as T;
  return t;
};

/** A Python float: a plain number, or a {@link PyFloat} box when integral so it stays a float. @public */
export const pyFloat = (x: number): number | PyFloat =>
  Number.isInteger(x) && !Object.is(x, -0) ? new PyFloat(x) : x;

/**
 * Encodes a JavaScript value into the tagged-JSON form shared with every subprocess and worker.
 * Throws a {@link CrosscheckError} (`UNSERIALIZABLE`) for functions, symbols, cycles, class
 * instances, or values past the limits.
 * @public
 */
export const encode = (value: unknown, limits?: Partial<EncodeLimits>): Tagged => {
  if (typeof limits === 'object' && limits !== null) {
    checkKeys({ where: 'encode(value, limits)' }, limits, {
      maxBytes: true,
      maxDepth: true,
    } satisfies Record<keyof EncodeLimits, true>);
  }
  try {
    return core.encode(value, limits);
  } catch (error) {
    if (error instanceof core.EncodeFailure) {
      throw new CrosscheckError('UNSERIALIZABLE', `Cannot encode value: ${error.message}.`, { cause: error });
    }
    throw error;
  }
};

/**
 * Why a JSON value is not a well-formed tagged value (a tag with a body of the wrong shape,
 * nesting past the bound), or null when it is. @internal
 */
export const checkTagged = (value: unknown): string | null => core.check(value);

/**
 * Decodes a tagged-JSON value; the inverse of {@link encode}. Throws a {@link CrosscheckError}
 * (`UNSERIALIZABLE`) for a malformed one, such as `{"$tuple": 5}`.
 * @public
 */
export const decode = (tagged: Tagged): unknown => {
  const why = core.check(tagged);
  if (why !== null) throw new CrosscheckError('UNSERIALIZABLE', `Cannot decode value: ${why}.`);
  return core.decode(tagged);
};

/** Encodes straight to the JSON wire form. @public */
export const toWire = (value: unknown, limits?: Partial<EncodeLimits>): string =>
  JSON.stringify(encode(value, limits));

/** Decodes the JSON wire form. @public */
export const fromWire = (text: string): unknown => decode(JSON.parse(text) as Tagged);

/** The failure class the core codec throws, for runners that turn it into an outcome. @internal */
export const EncodeFailure = core.EncodeFailure;
