/**
 * Pulls the code out of an LLM reply. Replies come as raw code or as Markdown with one or more
 * fenced blocks; the block that defines the entry wins, then the first block in the requested
 * language, then the first block of all.
 */

const FENCE = /(^|\n)[ \t]*(```+|~~~+)[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?=\n|$)/g;

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

/** Every fenced block of a Markdown text, in order. */
export const fencedBlocks = (text: string): CodeBlock[] => {
  const blocks: CodeBlock[] = [];
  for (const m of text.matchAll(FENCE)) blocks.push({ lang: (m[3] ?? '').toLowerCase(), code: m[4] ?? '' });
  return blocks;
};

/**
 * The code of a reply: its fenced block that mentions the entry (preferring the requested
 * language), or the reply itself when it has no fences.
 */
export const extractCode = (reply: string, language: string, entry: string | undefined): string => {
  const blocks = fencedBlocks(reply);
  if (blocks.length === 0) return reply;
  const names = FENCE_NAMES[language] ?? [language];
  const ours = blocks.filter((b) => b.lang === '' || names.includes(b.lang));
  const pool = ours.length > 0 ? ours : blocks;
  const mentions =
    entry === undefined ? [] : pool.filter((b) => new RegExp(`\\b${escapeRegExp(entry)}\\b`).test(b.code));
  return (mentions[0] ?? pool[0] ?? blocks[0])!.code;
};

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
