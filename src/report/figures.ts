/** Glyphs of the renderers, in one place (as Vitest's `renderers/figures.ts`). @public */
export const GLYPHS = {
  pass: '✓',
  fail: '✗',
  flag: '⚑',
  none: '—',
  pm: '±',
  bullet: '·',
  ellipsis: '…',
} as const;
