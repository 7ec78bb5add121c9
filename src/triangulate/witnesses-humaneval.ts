/**
 * Hand-written witnesses for HumanEval tasks with natural inverses (design §4.5). A hand-written
 * witness is a trusted oracle: running them exercises the machinery on real programs; it does not
 * test the paper's claim that sampled witnesses are independent evidence.
 */
import type { Transformation } from './transformation.ts';

/** One task's witness: its transformation and Python source. @internal */
export interface HandWitness {
  readonly transformation: Transformation;
  readonly entry: string;
  readonly source: string;
}

const INVALID = "raise ValueError('Invalid input')";

/** HumanEval/27, /79, /15, /25, /93, /16. @internal */
export const HUMANEVAL_WITNESSES: Readonly<Record<string, HandWitness>> = {
  // flip_case is its own inverse.
  'HumanEval/27': {
    transformation: { kind: 'fwd-inv' },
    entry: 'flip_case_inv',
    source: 'def flip_case_inv(flipped):\n    return flipped.swapcase()\n',
  },
  // "db" + binary digits + "db" back to the number; the reference writes a negative number as
  // "db" + "b" + the digits of its magnitude + "db" (Python's bin(-n)[2:]), which is injective too.
  'HumanEval/79': {
    transformation: { kind: 'fwd-inv' },
    entry: 'decimal_to_binary_inv',
    source: `def decimal_to_binary_inv(s):\n    if not (isinstance(s, str) and s.startswith('db') and s.endswith('db') and len(s) > 4):\n        ${INVALID}\n    digits = s[2:-2]\n    sign = 1\n    if digits.startswith('b'):\n        sign, digits = -1, digits[1:]\n    if not digits or any(c not in '01' for c in digits) or (len(digits) > 1 and digits[0] == '0') or (sign < 0 and digits == '0'):\n        ${INVALID}\n    return sign * int(digits, 2)\n`,
  },
  // "0 1 … n" back to n.
  'HumanEval/15': {
    transformation: { kind: 'fwd-inv' },
    entry: 'string_sequence_inv',
    source: `def string_sequence_inv(s):\n    parts = s.split(' ') if isinstance(s, str) else []\n    if not parts or parts != [str(i) for i in range(len(parts))]:\n        ${INVALID}\n    return len(parts) - 1\n`,
  },
  // The product of ascending primes; anything else is not an output of factorize.
  'HumanEval/25': {
    transformation: { kind: 'fwd-inv' },
    entry: 'factorize_inv',
    source: `def factorize_inv(factors):\n    def prime(p):\n        return p >= 2 and all(p % d for d in range(2, int(p ** 0.5) + 1))\n    if not isinstance(factors, list) or any(not isinstance(f, int) or not prime(f) for f in factors):\n        ${INVALID}\n    if factors != sorted(factors):\n        ${INVALID}\n    out = 1\n    for f in factors:\n        out *= f\n    return out\n`,
  },
  // encode is not injective (an encoded 'c' comes from 'a' or from 'c'), so the witness is the
  // set-valued inverse: every preimage, exhaustive up to 10 ambiguous letters, else a Subset.
  'HumanEval/93': {
    transformation: { kind: 'fwd-sinv' },
    entry: 'encode_sinv',
    source: `def encode_sinv(message):\n    if not isinstance(message, str) or any(ch in 'aeiouAEIOU' for ch in message):\n        ${INVALID}\n    back = {'c': 'a', 'g': 'e', 'k': 'i', 'q': 'o', 'w': 'u'}\n    options = []\n    for ch in message.swapcase():\n        low = ch.lower()\n        if low in back:\n            vowel = back[low] if ch.islower() else back[low].upper()\n            options.append([ch, vowel])\n        else:\n            options.append([ch])\n    out = ['']\n    for opts in options:\n        out = [o + c for o in out for c in opts]\n        if len(out) > 1024:\n            return (False, out[:1024])\n    return out\n`,
  },
  // Strings with exactly c distinct characters (case-insensitive): an infinite fiber, so a Subset.
  'HumanEval/16': {
    transformation: { kind: 'fwd-sinv' },
    entry: 'count_distinct_characters_sinv',
    source: `def count_distinct_characters_sinv(count):\n    if not isinstance(count, int) or count < 0:\n        ${INVALID}\n    letters = 'abcdefghijklmnopqrstuvwxyz0123456789 '\n    if count > len(letters):\n        return (False, [])\n    base = letters[:count]\n    return (False, [base, base.upper(), base + base[:1], base[::-1]])\n`,
  },
};
