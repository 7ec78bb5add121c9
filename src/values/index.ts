/**
 * Values: the tagged-JSON codec shared with every worker and subprocess, canonical keys and the
 * equality modes.
 * @packageDocumentation
 */
export {
  Complex,
  checkTagged,
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
/** Internal: what other folders of the engine use; not part of the public API. @internal */
export { type CodecCore, createCodec } from './codec-core.ts';
/** Internal: a `$complex` part as a float body, for readers of tagged values. @internal */
export { complexPart } from './complex-part.ts';
/** Internal: how reports and messages apply `neutralizeControls`; not part of the public API. @internal */
export {
  escapeJsonControls,
  type NeutralizeOptions,
  neutralizeControls,
  neutralizeDeep,
} from './controls.ts';
export { sha256, valueCellKey } from './digest.ts';
export {
  type Comparator,
  comparator,
  type Equality,
  type EqualityMode,
  exactKeys,
  type PreparedValue,
} from './equality.ts';
export { formatTagged } from './format.ts';
export {
  equalityName,
  type FieldsOptions,
  type NumberOptions,
  type SemanticEquality,
  same,
  type TextOptions,
} from './same.ts';
