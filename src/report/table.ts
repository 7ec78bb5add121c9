import { GLYPHS } from './figures.ts';

/** A column of a plain-text table. */
export interface Column {
  readonly header: string;
  readonly cells: readonly string[];
  readonly align?: 'left' | 'right';
  /** Dropped first when the table is too wide: higher drops earlier; 0 never drops. */
  readonly drop?: number;
  /** May be cut (with an ellipsis) down to this width when the table is still too wide. */
  readonly minWidth?: number;
  /** Colours a padded cell (never changes its width). */
  readonly paint?: (cell: string, row: number) => string;
}

const GAP = 2;

const cut = (text: string, width: number): string =>
  text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}${GLYPHS.ellipsis}`;

const widthOf = (c: Column): number => Math.max(c.header.length, ...c.cells.map((x) => x.length));

/** Columns that fit `width`: drop optional columns, then cut the cuttable ones. */
const fitColumns = (columns: readonly Column[], width: number): { column: Column; width: number }[] => {
  let kept = columns.map((column) => ({ column, width: widthOf(column) }));
  const total = () => kept.reduce((a, c) => a + c.width, 0) + GAP * (kept.length - 1);
  while (total() > width) {
    const droppable = kept.filter((c) => (c.column.drop ?? 0) > 0);
    if (droppable.length === 0) break;
    const worst = droppable.reduce((a, b) => ((b.column.drop ?? 0) > (a.column.drop ?? 0) ? b : a));
    kept = kept.filter((c) => c !== worst);
  }
  for (const c of kept) {
    const over = total() - width;
    if (over <= 0) break;
    if (c.column.minWidth !== undefined) c.width = Math.max(c.column.minWidth, c.width - over);
  }
  return kept;
};

/**
 * Renders rows as an aligned plain-text table no wider than `width` (when the columns allow),
 * header bolded by `bold`. Returns lines without trailing spaces.
 */
export const renderTable = (
  columns: readonly Column[],
  width: number,
  bold: (s: string) => string,
  indent = '  ',
): string[] => {
  const kept = fitColumns(columns, width - indent.length);
  const rows = kept[0]?.column.cells.length ?? 0;
  // The last cell is trimmed before painting: trailing spaces inside colour codes would survive
  // a trimEnd of the whole line.
  const line = (cell: (c: { column: Column; width: number }, last: boolean) => string) =>
    `${indent}${kept.map((c, i) => cell(c, i === kept.length - 1)).join(' '.repeat(GAP))}`.trimEnd();
  const pad = (text: string, c: { column: Column; width: number }) => {
    const t = cut(text, c.width);
    return c.column.align === 'right' ? t.padStart(c.width) : t.padEnd(c.width);
  };
  const out = [line((c, last) => bold(last ? pad(c.column.header, c).trimEnd() : pad(c.column.header, c)))];
  for (let r = 0; r < rows; r++) {
    out.push(
      line((c, last) => {
        const padded = last ? pad(c.column.cells[r] ?? '', c).trimEnd() : pad(c.column.cells[r] ?? '', c);
        return c.column.paint ? c.column.paint(padded, r) : padded;
      }),
    );
  }
  return out;
};
