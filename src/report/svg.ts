/** Inline SVG plots for the HTML report: no scripts, no external resources. */

/** Escapes text for HTML and SVG content and attribute values. */
export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A point of a scatter plot; `title` becomes its hover tooltip. */
export interface PlotPoint {
  readonly x: number;
  readonly y: number;
  readonly title: string;
  /** Printed beside the point. */
  readonly label?: string;
}

/** A reference line in data coordinates. */
export interface PlotLine {
  readonly from: readonly [number, number];
  readonly to: readonly [number, number];
  readonly label: string;
}

export interface ScatterOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly x: readonly [number, number];
  readonly y: readonly [number, number];
  readonly ticks: readonly number[];
  readonly lines?: readonly PlotLine[];
  /** Flip the y axis so rank 1 sits at the top. */
  readonly invertY?: boolean;
}

const W = 420;
const H = 320;
const PAD = { left: 56, right: 16, top: 30, bottom: 46 };
const f = (x: number): string => String(Math.round(x * 10) / 10);
const tickText = (t: number): string => (Number.isInteger(t) ? String(t) : t.toFixed(2));

/** A scatter plot with axes, ticks, optional dashed reference lines and point labels. */
export const scatterPlot = (points: readonly PlotPoint[], o: ScatterOptions): string => {
  const sx = (x: number) => PAD.left + ((x - o.x[0]) / (o.x[1] - o.x[0])) * (W - PAD.left - PAD.right);
  const syRaw = (y: number) => (y - o.y[0]) / (o.y[1] - o.y[0]);
  const sy = (y: number) =>
    H - PAD.bottom - (o.invertY ? 1 - syRaw(y) : syRaw(y)) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeXml(o.title)}">`,
    `<text x="${W / 2}" y="18" text-anchor="middle" class="title">${escapeXml(o.title)}</text>`,
    `<rect x="${PAD.left}" y="${PAD.top}" width="${W - PAD.left - PAD.right}" height="${H - PAD.top - PAD.bottom}" class="frame"/>`,
  ];
  for (const t of o.ticks) {
    if (t >= o.x[0] && t <= o.x[1]) {
      parts.push(
        `<line x1="${f(sx(t))}" y1="${PAD.top}" x2="${f(sx(t))}" y2="${H - PAD.bottom}" class="grid"/>`,
        `<text x="${f(sx(t))}" y="${H - PAD.bottom + 14}" text-anchor="middle" class="tick">${tickText(t)}</text>`,
      );
    }
    if (t >= o.y[0] && t <= o.y[1]) {
      parts.push(
        `<line x1="${PAD.left}" y1="${f(sy(t))}" x2="${W - PAD.right}" y2="${f(sy(t))}" class="grid"/>`,
        `<text x="${PAD.left - 6}" y="${f(sy(t) + 4)}" text-anchor="end" class="tick">${tickText(t)}</text>`,
      );
    }
  }
  // Reference lines get a legend in the bottom-right corner: below I = 2E no task can lie.
  (o.lines ?? []).forEach((line, i) => {
    const [x1, y1] = line.from;
    const [x2, y2] = line.to;
    const ly = H - PAD.bottom - 10 - 16 * i;
    const lx = W - PAD.right - 10;
    parts.push(
      `<line x1="${f(sx(x1))}" y1="${f(sy(y1))}" x2="${f(sx(x2))}" y2="${f(sy(y2))}" class="ref"/>`,
      `<line x1="${lx - 24}" y1="${ly - 4}" x2="${lx}" y2="${ly - 4}" class="ref"/>`,
      `<text x="${lx - 30}" y="${ly}" text-anchor="end" class="reflabel">${escapeXml(line.label)}</text>`,
    );
  });
  // Coincident points (many tasks at Î = E = 0) draw once, with their count.
  const groups = new Map<string, PlotPoint[]>();
  for (const p of points) {
    const key = `${f(sx(p.x))},${f(sy(p.y))}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  for (const group of groups.values()) {
    const p = group[0] as PlotPoint;
    const title = group.map((q) => q.title).join('\n');
    parts.push(
      `<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="5" class="point"><title>${escapeXml(title)}</title></circle>`,
    );
    const label = [
      group
        .map((q) => q.label)
        .filter(Boolean)
        .join(', '),
      group.length > 1 ? `×${group.length}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (label) {
      parts.push(
        `<text x="${f(sx(p.x) + 8)}" y="${f(sy(p.y) - 6)}" class="plabel">${escapeXml(label)}</text>`,
      );
    }
  }
  parts.push(
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle" class="axis">${escapeXml(o.xLabel)}</text>`,
    `<text transform="translate(14 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle" class="axis">${escapeXml(o.yLabel)}</text>`,
    '</svg>',
  );
  return parts.join('\n');
};

/** One stacked bar: a label and the shares of its segments (summing to at most 1). */
export interface ShareBar {
  readonly label: string;
  readonly shares: readonly { readonly share: number; readonly title: string }[];
}

const PALETTE = ['#2f6fb0', '#e0892b', '#3a9a5b', '#c4413b', '#8a63b8', '#8c6d4f', '#d46fb4', '#7f7f7f'];

/** Horizontal stacked bars (per-check class shares), one row per bar. */
export const shareBars = (bars: readonly ShareBar[], title: string): string => {
  const labelW = 260;
  const barW = 360;
  const rowH = 22;
  const width = labelW + barW + 20;
  const height = 30 + bars.length * rowH + 8;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<text x="${width / 2}" y="18" text-anchor="middle" class="title">${escapeXml(title)}</text>`,
  ];
  bars.forEach((bar, i) => {
    const y = 30 + i * rowH;
    const label = bar.label.length > 40 ? `${bar.label.slice(0, 39)}…` : bar.label;
    parts.push(
      `<text x="${labelW - 8}" y="${y + 14}" text-anchor="end" class="tick">${escapeXml(label)}<title>${escapeXml(bar.label)}</title></text>`,
    );
    let x = labelW;
    bar.shares.forEach((s, k) => {
      const w = s.share * barW;
      parts.push(
        `<rect x="${f(x)}" y="${y + 2}" width="${f(w)}" height="${rowH - 6}" fill="${PALETTE[k % PALETTE.length]}" stroke="#fff"><title>${escapeXml(s.title)}</title></rect>`,
      );
      x += w;
    });
  });
  parts.push('</svg>');
  return parts.join('\n');
};
