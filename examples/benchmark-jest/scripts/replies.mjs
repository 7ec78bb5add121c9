/**
 * The replies the committed cache holds for three made-up models. No model wrote these: this
 * repository has no live model, so they were written by hand and served by crosscheck's scripted
 * OpenAI-compatible server (scripts/record-cache.mjs). Each task has right and wrong variants of
 * the kind models write; a model's quality is how many of its five samples per task are wrong.
 */
const py = (body) => `\`\`\`python\n${body}\n\`\`\``;

const VARIANTS = {
  running_max: {
    right: [
      `from typing import List\n\ndef running_max(xs: List[int]) -> List[int]:\n    out, best = [], None\n    for x in xs:\n        best = x if best is None or x > best else best\n        out.append(best)\n    return out`,
      `from itertools import accumulate\nfrom typing import List\n\ndef running_max(xs: List[int]) -> List[int]:\n    return list(accumulate(xs, max))`,
    ],
    // Starts from 0, so all-negative lists come out wrong.
    wrong: [
      `from typing import List\n\ndef running_max(xs: List[int]) -> List[int]:\n    best, out = 0, []\n    for x in xs:\n        best = max(best, x)\n        out.append(best)\n    return out`,
    ],
  },
  count_vowels: {
    right: [
      `def count_vowels(s: str) -> int:\n    return sum(ch in "aeiouAEIOU" for ch in s)`,
      `def count_vowels(s: str) -> int:\n    count = 0\n    for ch in s.lower():\n        if ch in "aeiou":\n            count += 1\n    return count`,
    ],
    // Lower case only; then "y" as a vowel.
    wrong: [
      `def count_vowels(s: str) -> int:\n    return sum(1 for ch in s if ch in "aeiou")`,
      `def count_vowels(s: str) -> int:\n    return sum(1 for ch in s.lower() if ch in "aeiouy")`,
    ],
  },
  is_leap: {
    right: [
      `def is_leap(year: int) -> bool:\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)`,
      `import calendar\n\ndef is_leap(year: int) -> bool:\n    return calendar.isleap(year)`,
    ],
    // Forgets the century rule.
    wrong: [`def is_leap(year: int) -> bool:\n    return year % 4 == 0`],
  },
  dedupe: {
    right: [
      `from typing import List\n\ndef dedupe(xs: List[int]) -> List[int]:\n    return list(dict.fromkeys(xs))`,
      `from typing import List\n\ndef dedupe(xs: List[int]) -> List[int]:\n    seen, out = set(), []\n    for x in xs:\n        if x not in seen:\n            seen.add(x)\n            out.append(x)\n    return out`,
    ],
    // Loses the order.
    wrong: [`from typing import List\n\ndef dedupe(xs: List[int]) -> List[int]:\n    return sorted(set(xs))`],
  },
};

/** Wrong samples (of five) per task: model-a rarely errs, model-c often. */
const WRONG = {
  'model-a': { running_max: 0, count_vowels: 1, is_leap: 0, dedupe: 0 },
  'model-b': { running_max: 1, count_vowels: 2, is_leap: 1, dedupe: 0 },
  'model-c': { running_max: 2, count_vowels: 3, is_leap: 2, dedupe: 2 },
};

/** The reply to sample `sample` of `model` for the task whose function is `entry`. */
export const replyFor = (model, entry, sample) => {
  const v = VARIANTS[entry];
  const wrong = WRONG[model]?.[entry];
  if (v === undefined || wrong === undefined) return null;
  // Wrong samples come at odd positions first, so every model's first samples mix both kinds.
  const order = [1, 3, 0, 2, 4];
  const isWrong = order.indexOf(sample) < wrong;
  const list = isWrong ? v.wrong : v.right;
  return py(list[sample % list.length]);
};

export const MODELS = Object.keys(WRONG);
export const ENTRIES = Object.keys(VARIANTS);
