// Prometheus text exposition format (version 0.0.4), as DCGM exporter serves it:
//   # HELP / # TYPE / other comments, blank lines, and samples
//   name{label="value",...} value [timestamp_ms]
// Lines that are none of these are skipped and counted, never fatal.

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  /** NaN, +Inf and -Inf are legal values and kept as such. */
  value: number;
  timestamp_ms: number | null;
}

export interface PromParse {
  samples: PromSample[];
  /** Lines that were not a comment, blank, or a well-formed sample. */
  malformed: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function parseValue(s: string): number | undefined {
  if (s === 'NaN') return NaN;
  if (s === '+Inf' || s === 'Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return undefined;
  return Number(s);
}

/** Parses `{a="x",b="y"}` starting at line[i] === '{'; returns the labels and the index after '}'. */
function parseLabels(line: string, i: number): { labels: Record<string, string>; next: number } | undefined {
  const labels: Record<string, string> = {};
  i++; // '{'
  for (;;) {
    while (line[i] === ' ') i++;
    if (line[i] === '}') return { labels, next: i + 1 };
    const m = LABEL_NAME.exec(line.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    while (line[i] === ' ') i++;
    if (line[i] !== '=') return undefined;
    i++;
    while (line[i] === ' ') i++;
    if (line[i] !== '"') return undefined;
    i++;
    let value = '';
    for (;;) {
      const c = line[i];
      if (c === undefined) return undefined;
      if (c === '"') break;
      if (c === '\\') {
        const e = line[i + 1];
        if (e === 'n') value += '\n';
        else if (e === '\\' || e === '"') value += e;
        else return undefined;
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    i++; // closing quote
    labels[m[0]] = value;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') return undefined;
  }
}

/** Parses one sample line; undefined when it is malformed. */
export function parseSampleLine(line: string): PromSample | undefined {
  const m = NAME.exec(line);
  if (!m) return undefined;
  let i = m[0].length;
  let labels: Record<string, string> = {};
  if (line[i] === '{') {
    const l = parseLabels(line, i);
    if (!l) return undefined;
    labels = l.labels;
    i = l.next;
  }
  const rest = line.slice(i).trim().split(/\s+/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '' || !/^\s/.test(line.slice(i))) return undefined;
  const value = parseValue(rest[0]);
  if (value === undefined) return undefined;
  let timestamp_ms: number | null = null;
  if (rest.length === 2) {
    if (!/^-?\d+$/.test(rest[1])) return undefined;
    timestamp_ms = Number(rest[1]);
  }
  return { name: m[0], labels, value, timestamp_ms };
}

/** Parses a whole exposition; `keep` filters samples by metric name (all when omitted). */
export function parsePrometheusText(text: string, keep?: ReadonlySet<string>): PromParse {
  const samples: PromSample[] = [];
  let malformed = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const s = parseSampleLine(t);
    if (!s) {
      malformed++;
      continue;
    }
    if (!keep || keep.has(s.name)) samples.push(s);
  }
  return { samples, malformed };
}
