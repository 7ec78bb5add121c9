/**
 * Values: the tagged-JSON codec shared with every worker and subprocess, canonical keys and the
 * equality modes.
 * @packageDocumentation
 */
export {
  Complex,
  decode,
  type EncodeLimits,
  encode,
  FrozenSet,
  fromWire,
  PyDict,
  PyFloat,
  pyFloat,
  type Tagged,
  Tuple,
  toWire,
  tuple,
} from './codec.ts';
export {
  type Comparator,
  comparator,
  type Equality,
  type EqualityMode,
  type PreparedValue,
} from './equality.ts';
export { formatTagged } from './format.ts';
