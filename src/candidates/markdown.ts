/**
 * Pulls the code out of an LLM reply. Replies come as raw code or as Markdown with one or more
 * fenced blocks; the block that defines the entry wins, then one that mentions it (both preferring
 * the requested language), then the first block in the requested language, then the first of all.
 */

// `\r?` before each line break: replies with Windows line endings have fences too.
const FENCE = /(^|\n)[ \t]*(```+|~~~+)[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)\r?\n[ \t]*\2[ \t]*(?=\r?\n|$)/g;

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

/** A fence that is never closed: in Markdown its block runs to the end of the text. */
const OPEN_FENCE = /(^|\n)[ \t]*(```+|~~~+)[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*)$/;

/** Every fenced block of a Markdown text, in order. */
export const fencedBlocks = (text: string): CodeBlock[] => {
  const blocks: CodeBlock[] = [];
  let end = 0;
  for (const m of text.matchAll(FENCE)) {
    blocks.push({ lang: (m[3] ?? '').toLowerCase(), code: m[4] ?? '' });
    end = m.index + m[0].length;
  }
  // A reply cut off by a token limit, or whose author forgot the closing fence.
  const open = OPEN_FENCE.exec(text.slice(end));
  if (open) blocks.push({ lang: (open[3] ?? '').toLowerCase(), code: (open[4] ?? '').replace(/\r?\n$/, '') });
  return blocks;
};

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
