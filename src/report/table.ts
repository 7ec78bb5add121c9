import { GLYPHS } from './figures.ts';

/** A column of a plain-text table. */
export interface Column {
  readonly header: string;
  readonly cells: readonly string[];
  readonly align?: 'left' | 'right';
  /**
   * Part of what identifies a row (task, model, check, pool): never dropped and never cut. When
   * the identifying columns and the kept figures do not fit, the table stacks its rows instead.
   */
  readonly identity?: boolean;
  /** Dropped first when the table is too wide: higher drops earlier; 0 never drops. */
  readonly drop?: number;
  /** May be cut (with an ellipsis) down to this width when the table is still too wide. */
  readonly minWidth?: number;
  /** Colours a padded cell (never changes its width). */
  readonly paint?: (cell: string, row: number) => string;
}

interface Fitted {
  readonly column: Column;
  width: number;
}

const GAP = 2;
const SEP = ` ${GLYPHS.bullet} `;

const cut = (text: string, width: number): string =>
  text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}${GLYPHS.ellipsis}`;

const widthOf = (c: Column): number => Math.max(c.header.length, ...c.cells.map((x) => x.length));

const totalWidth = (kept: readonly Fitted[]): number =>
  kept.reduce((a, c) => a + c.width, 0) + GAP * (kept.length - 1);

// A mark column (✓, ⚑) has a blank header: in stacked rows its cells lead the identity line.
const isMark = (c: Column): boolean => c.header.trim() === '';

/**
 * Columns for `width`: drop optional columns, then cut the cuttable ones; identifying columns
 * are never touched. Null when what is left still does not fit (the rows stack instead).
 */
const fitColumns = (columns: readonly Column[], width: number): Fitted[] | null => {
  let kept: Fitted[] = columns.map((column) => ({ column, width: widthOf(column) }));
  while (totalWidth(kept) > width) {
    const droppable = kept.filter((c) => !c.column.identity && (c.column.drop ?? 0) > 0);
    if (droppable.length === 0) break;
    const worst = droppable.reduce((a, b) => ((b.column.drop ?? 0) > (a.column.drop ?? 0) ? b : a));
    kept = kept.filter((c) => c !== worst);
  }
  for (const c of kept) {
    const over = totalWidth(kept) - width;
    if (over <= 0) break;
    if (c.column.minWidth !== undefined && !c.column.identity) {
      c.width = Math.max(c.column.minWidth, c.width - over);
    }
  }
  return totalWidth(kept) <= width ? kept : null;
};

/** Splits `text` into pieces of at most `width` characters (identities are broken, never cut). */
const hardBreak = (text: string, width: number): string[] => {
  const step = Math.max(1, width);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += step) pieces.push(text.slice(i, i + step));
  return pieces.length ? pieces : [''];
};

/**
 * Lays out parts (plain text, `paint`ed after layout) as lines of at most `width` characters
 * joined by bullets; a part wider than a line gets lines of its own.
 */
const flowParts = (
  parts: ReadonlyArray<{ readonly text: string; readonly paint?: (s: string) => string }>,
  width: number,
): string[] => {
  const lines: string[] = [];
  let line = '';
  let visible = 0;
  for (const { text, paint = (s: string) => s } of parts) {
    const needed = visible === 0 ? text.length : visible + SEP.length + text.length;
    if (needed <= width) {
      line += (visible === 0 ? '' : SEP) + paint(text);
      visible = needed;
      continue;
    }
    if (visible > 0) lines.push(line);
    const pieces = hardBreak(text, width);
    lines.push(...pieces.slice(0, -1).map(paint));
    const last = pieces.at(-1) as string;
    line = paint(last);
    visible = last.length;
  }
  return visible > 0 || lines.length === 0 ? [...lines, line] : lines;
};

/**
 * The rows as records when no table fits: a legend naming the identifying fields, then per row
 * its marks and identity (wrapped, never cut) and, indented under it, every other column as
 * `header value` (wrapped). Nothing is dropped.
 */
const stackRows = (
  columns: readonly Column[],
  width: number,
  bold: (s: string) => string,
  indent: string,
): string[] => {
  const marks = columns.filter(isMark);
  const identity = columns.filter((c) => c.identity);
  const figures = columns.filter((c) => !isMark(c) && !c.identity);
  const markWidth = marks.reduce((a, c) => a + widthOf(c) + 1, 0);
  const lead = `${indent}${' '.repeat(markWidth)}`;
  const under = `${lead}  `;
  const out = flowParts(
    identity.map((c) => ({ text: c.header, paint: bold })),
    width - lead.length,
  ).map((l) => `${lead}${l}`);
  const rows = columns[0]?.cells.length ?? 0;
  for (let r = 0; r < rows; r++) {
    const markText = marks
      .map((c) => {
        const padded = (c.cells[r] ?? '').padEnd(widthOf(c));
        return `${c.paint ? c.paint(padded, r) : padded} `;
      })
      .join('');
    const ids = flowParts(
      identity.map((c) => ({ text: c.cells[r] ?? '' })),
      width - lead.length,
    );
    out.push(`${indent}${markText}${ids[0] ?? ''}`.trimEnd(), ...ids.slice(1).map((l) => `${lead}${l}`));
    const paint = (c: Column) => (s: string) => (c.paint ? c.paint(s, r) : s);
    const figureLines = flowParts(
      figures.map((c) => ({ text: `${c.header} ${c.cells[r] ?? ''}`.trimEnd(), paint: paint(c) })),
      width - under.length,
    );
    out.push(...figureLines.filter((l) => l !== '').map((l) => `${under}${l}`));
  }
  return out;
};

/**
 * Renders rows as an aligned plain-text table no wider than `width`, header bolded by `bold`.
 * Optional columns drop and cuttable ones shrink to fit; when the identifying columns still do
 * not fit, each row becomes a small record instead (see {@link Column.identity}). Returns lines
 * without trailing spaces.
 */
export const renderTable = (
  columns: readonly Column[],
  width: number,
  bold: (s: string) => string,
  indent = '  ',
): string[] => {
  const kept = fitColumns(columns, width - indent.length);
  if (kept === null) return stackRows(columns, width, bold, indent);
  const rows = kept[0]?.column.cells.length ?? 0;
  // The last cell is trimmed before painting: trailing spaces inside colour codes would survive
  // a trimEnd of the whole line.
  const line = (cell: (c: Fitted, last: boolean) => string) =>
    `${indent}${kept.map((c, i) => cell(c, i === kept.length - 1)).join(' '.repeat(GAP))}`.trimEnd();
  const pad = (text: string, c: Fitted) => {
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
