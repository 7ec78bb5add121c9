/**
 * The replies the committed cache holds, as a model might write them. No model wrote these: this
 * repository has no live model, so they were written by hand and served by crosscheck's scripted
 * OpenAI-compatible server (scripts/record-cache.mjs). One of them carries the kind of bug models
 * make; which one is for crosscheck to find.
 */
const ts = (body) => `\`\`\`typescript\n${body}\n\`\`\``;
const py = (body) => `\`\`\`python\n${body}\n\`\`\``;

export const REPLIES = [
  {
    prompt: 'Write the TypeScript function `slugify`',
    samples: [
      ts(`function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}`),
      ts(`function slugify(title: string): string {
  const words = title.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  return words.join('-');
}`),
      ts(`function slugify(title: string): string {
  let out = '';
  let gap = false;
  for (const ch of title.toLowerCase()) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      if (gap && out.length > 0) out += '-';
      out += ch;
      gap = false;
    } else {
      gap = true;
    }
  }
  return out;
}`),
    ],
  },
  {
    prompt: 'Write the Python function `slugify`',
    samples: [
      py(`import re


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")`),
      py(`import re


def slugify(title: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", title.lower()))`),
      py(`def slugify(title: str) -> str:
    words, word = [], ""
    for ch in title.lower():
        if ch.isascii() and ch.isalnum():
            word += ch
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return "-".join(words)`),
    ],
  },
  {
    prompt: 'Write the Python function `to_roman`',
    samples: [
      py(`def to_roman(n: int) -> str:
    if not 1 <= n <= 3999:
        raise ValueError("n must be between 1 and 3999")
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = []
    for value, numeral in table:
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)`),
      py(`def to_roman(n: int) -> str:
    if n < 1 or n > 3999:
        raise ValueError(n)
    thousands = ["", "M", "MM", "MMM"]
    hundreds = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
    tens = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
    ones = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    return thousands[n // 1000] + hundreds[n // 100 % 10] + tens[n // 10 % 10] + ones[n % 10]`),
      // Forgets CD: 400 comes out as CCCC.
      py(`def to_roman(n: int) -> str:
    if not 1 <= n <= 3999:
        raise ValueError("out of range")
    pairs = [(1000, "M"), (900, "CM"), (500, "D"), (100, "C"), (90, "XC"), (50, "L"),
             (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    result = ""
    for value, numeral in pairs:
        count, n = divmod(n, value)
        result += numeral * count
    return result`),
      py(`def to_roman(n: int) -> str:
    if not 1 <= n <= 3999:
        raise ValueError("n out of range")
    numerals = {1000: "M", 900: "CM", 500: "D", 400: "CD", 100: "C", 90: "XC", 50: "L",
                40: "XL", 10: "X", 9: "IX", 5: "V", 4: "IV", 1: "I"}
    result = ""
    for value in sorted(numerals, reverse=True):
        while n >= value:
            result += numerals[value]
            n -= value
    return result`),
    ],
  },
];
