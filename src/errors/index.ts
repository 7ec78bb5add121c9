/**
 * Typed errors of crosscheck.
 *
 * Misuse of the API (a malformed task, bad options, a missing entry point) throws a
 * {@link CrosscheckError}. Its message names the API or option, the rule, what arrived and how to
 * fix it. A symbol brand makes {@link isCrosscheckError} work across realms and duplicate installs,
 * where `instanceof` does not. The validation kit (`optionError` and the `read*` readers) is the
 * one way the engine checks options, so every message has the same shape.
 *
 * @packageDocumentation
 */
export {
  CrosscheckError,
  type CrosscheckErrorCode,
  describeValue,
  isCrosscheckError,
  toErrorInfo,
} from './error.ts';
export { ioError, withIo } from './io.ts';
export {
  checkKeys,
  type KeysAt,
  type KnownKeys,
  knownKeys,
  nearestKey,
  type OptionKeys,
  orFalse,
  readOptions,
  unknownKeyError,
} from './known-keys.ts';
export {
  type FieldAt,
  fixOf,
  isPlainObject,
  type OptionProblem,
  optionError,
  problemOf,
  readFlag,
  readLabel,
  readMs,
  readNames,
  readOneOf,
  readOptionsObject,
  readPositiveInt,
  readProbability,
  readSeed,
  readSignal,
  readTags,
  type Tags,
} from './validate.ts';
