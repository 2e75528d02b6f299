// A small text-table renderer for the console exporter: box-drawing or plain ASCII borders,
// multi-line cells, optional ANSI colour applied after padding so widths stay right.

export interface Column {
  header: string;
  align: 'left' | 'right';
}

export interface TableSpec {
  title?: string;
  columns: Column[];
  /** Cells may hold '\n' for several lines. */
  rows: string[][];
  ascii?: boolean;
  color?: boolean;
}

const BOX = { h: '─', v: '│', tl: '┌', tm: '┬', tr: '┐', ml: '├', mm: '┼', mr: '┤', bl: '└', bm: '┴', br: '┘' };
const ASCII = { h: '-', v: '|', tl: '+', tm: '+', tr: '+', ml: '+', mm: '+', mr: '+', bl: '+', bm: '+', br: '+' };
const BOLD = '\x1b[1m';
const CYAN = '\x1b[36m';
const RESET = '\x1b[0m';

/** Rendered width of a table whose columns have these content widths: "│ a │ b │". */
export function tableWidth(widths: readonly number[]): number {
  return widths.reduce((a, w) => a + w + 3, 1);
}

export function columnWidths(spec: Pick<TableSpec, 'columns' | 'rows'>): number[] {
  return spec.columns.map((c, i) =>
    Math.max(c.header.length, ...spec.rows.map((r) => Math.max(...(r[i] ?? '').split('\n').map((l) => l.length)))),
  );
}

export function renderTable(spec: TableSpec): string {
  const b = spec.ascii ? ASCII : BOX;
  const widths = columnWidths(spec);
  const paint = (s: string, code: string) => (spec.color ? `${code}${s}${RESET}` : s);
  const rule = (l: string, m: string, r: string) => l + widths.map((w) => b.h.repeat(w + 2)).join(m) + r;
  const line = (cells: string[], code?: string) => {
    const parts = cells.map((cell, i) => {
      const padded = spec.columns[i].align === 'right' ? cell.padStart(widths[i]) : cell.padEnd(widths[i]);
      return ` ${code ? paint(padded, code) : padded} `;
    });
    return b.v + parts.join(b.v) + b.v;
  };
  const out: string[] = [];
  if (spec.title) {
    const total = tableWidth(widths);
    const pad = Math.max(0, Math.floor((total - spec.title.length) / 2));
    out.push(' '.repeat(pad) + paint(spec.title, BOLD));
  }
  out.push(rule(b.tl, b.tm, b.tr));
  out.push(
    line(
      spec.columns.map((c) => c.header),
      BOLD + CYAN,
    ),
  );
  out.push(rule(b.ml, b.mm, b.mr));
  for (const row of spec.rows) {
    const split = spec.columns.map((_, i) => (row[i] ?? '').split('\n'));
    const height = Math.max(...split.map((s) => s.length));
    for (let k = 0; k < height; k++) out.push(line(split.map((s) => s[k] ?? '')));
  }
  out.push(rule(b.bl, b.bm, b.br));
  return out.join('\n');
}

/** Word-wrap to at most `width` characters a line; a word longer than that is split. */
export function wrapText(text: string, width: number): string {
  if (width <= 0 || text.length <= width) return text;
  const lines: string[] = [];
  let cur = '';
  for (let word of text.split(' ')) {
    while (word.length > width) {
      if (cur) lines.push(cur);
      cur = '';
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (!cur) cur = word;
    else if (cur.length + 1 + word.length <= width) cur += ' ' + word;
    else {
      lines.push(cur);
      cur = word;
    }
  }
  if (cur) lines.push(cur);
  return lines.join('\n');
}
