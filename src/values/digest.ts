import { createHash } from 'node:crypto';

/**
 * Canonical keys longer than this are compared by their SHA-256 instead: an output kept only as
 * a digest (past a run's output memory budget) must get the same cell key as the same output
 * kept whole, and short keys stay readable and cheap.
 * @internal
 */
export const KEY_INLINE_MAX = 1024;

/** SHA-256 of a string, hex. @internal */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The cell key of a value from its canonical (normal-form) key: the key itself when short, else
 * `h` and its hash. Equal values get equal cell keys whether kept whole or as a digest.
 * @internal
 */
export const valueCellKey = (canonicalKey: string): string =>
  canonicalKey.length > KEY_INLINE_MAX ? `h${sha256(canonicalKey)}` : `v${canonicalKey}`;
