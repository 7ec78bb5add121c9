/**
 * Pulls the code out of an LLM reply. Replies come as raw code or as Markdown with one or more
 * fenced blocks; the block that defines the entry wins, then one that mentions it (both preferring
 * the requested language), then the first block in the requested language, then the first of all.
 */

/** Languages a fence may name for each source language. */
const FENCE_NAMES: Record<string, readonly string[]> = {
  javascript: ['js', 'javascript', 'jsx', 'mjs', 'cjs', 'node'],
  typescript: ['ts', 'typescript', 'tsx', 'mts', 'cts'],
  python: ['py', 'python', 'python3', 'py3'],
};

export interface CodeBlock {
  readonly lang: string;
  readonly code: string;
}

/** An opening fence: its marker run (three or more of one fence character) and its language. */
interface Opening {
  readonly fence: string;
  readonly lang: string;
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isLangChar = (c: string): boolean => /[\w+#.-]/.test(c);

/**
 * Reads a line as an opening fence: optional blanks, a run of three or more backticks or
 * tildes, optional blanks, then the language (`[\w+#.-]*`); the rest of the line is ignored.
 * A hand-written scan, not a regular expression: every character is looked at a bounded number
 * of times, so an adversarial reply cannot make extraction super-linear.
 */
const openingOf = (line: string): Opening | null => {
  let i = 0;
  while (isBlank(line[i])) i++;
  const mark = line[i];
  if (mark !== '`' && mark !== '~') return null;
  const from = i;
  while (line[i] === mark) i++;
  if (i - from < 3) return null;
  const fence = line.slice(from, i);
  while (isBlank(line[i])) i++;
  const langFrom = i;
  while (i < line.length && isLangChar(line[i] as string)) i++;
  return { fence, lang: line.slice(langFrom, i).toLowerCase() };
};

/** Whether a line closes `fence`: blanks, exactly the same marker run, blanks, nothing else. */
const closes = (line: string, fence: string): boolean => {
  let i = 0;
  while (isBlank(line[i])) i++;
  if (!line.startsWith(fence, i)) return false;
  i += fence.length;
  while (isBlank(line[i])) i++;
  return i === line.length;
};

/**
 * Every fenced block of a Markdown text, in order. One pass over the lines: a block's code runs
 * from the line after its opening fence to the line before a closing fence of the same marker
 * run (a shorter or longer run inside is code), or to the end of the text when it is never
 * closed (a reply cut off by a token limit, or whose author forgot the closing fence).
 */
export const fencedBlocks = (text: string): CodeBlock[] => {
  const blocks: CodeBlock[] = [];
  // Lines without their `\r`, for matching; `text` keeps them, so code keeps its inner `\r`s.
  const lines = text.split('\n');
  let open: Opening | null = null;
  let codeFrom = 0;
  let offset = 0;
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (open === null) {
      open = openingOf(line);
      codeFrom = offset + raw.length + 1;
    } else if (closes(line, open.fence)) {
      blocks.push({ lang: open.lang, code: dropCr(text.slice(codeFrom, Math.max(codeFrom, offset - 1))) });
      open = null;
    }
    offset += raw.length + 1;
  }
  if (open !== null) {
    blocks.push({ lang: open.lang, code: trimLineEnd(text.slice(Math.min(codeFrom, text.length))) });
  }
  return blocks;
};

/** Drops the `\r` of a Windows line break before the closing fence. */
const dropCr = (code: string): string => (code.endsWith('\r') ? code.slice(0, -1) : code);

/** Drops one trailing line break (`\n` or `\r\n`) or a lone trailing `\r`. */
const trimLineEnd = (code: string): string => code.replace(/\r?\n?$/, '');

/**
 * The code of a reply: its fenced block that defines the entry, else one that mentions it
 * (preferring the requested language), or the reply itself when it has no fences.
 */
export const extractCode = (reply: string, language: string, entry: string | undefined): string => {
  const blocks = fencedBlocks(reply);
  if (blocks.length === 0) return reply;
  const names = FENCE_NAMES[language] ?? [language];
  const ours = blocks.filter((b) => b.lang === '' || names.includes(b.lang));
  const pool = ours.length > 0 ? ours : blocks;
  if (entry === undefined) return (pool[0] ?? blocks[0])!.code;
  // `\b` would not match before a name starting with `$`.
  const name = `(?<![\\w$])${escapeRegExp(entry)}(?![\\w$])`;
  const definition = new RegExp(
    `(?:\\bfunction\\s*\\*?\\s*|\\bdef\\s+|\\bclass\\s+|\\b(?:const|let|var)\\s+|\\bexports\\.|\\bas\\s+)${name}|${name}\\s*=(?![=>])`,
  );
  const mention = new RegExp(name);
  const defines = pool.find((b) => definition.test(b.code));
  const mentions = pool.find((b) => mention.test(b.code));
  return (defines ?? mentions ?? pool[0] ?? blocks[0])!.code;
};

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
