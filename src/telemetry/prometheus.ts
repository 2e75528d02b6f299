// The one Prometheus exposition parser of servebench (DCGM exporters and inference servers' /metrics):
// the text format 0.0.4 and its OpenMetrics 1.0 variant.
//   # HELP / # TYPE / # UNIT / other comments, blank lines, `# EOF` (OpenMetrics), and samples
//   name{label="value",...} value [timestamp] [# {exemplar labels} value [timestamp]]
// Lines that are none of these are skipped and counted, never fatal. Written here rather than taken
// from npm: the JS parsers there (parse-prometheus-text-format, exposition) are unmaintained, know
// no OpenMetrics, and build string-valued object trees, where a scrape every 333 ms wants numbers.

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  /** NaN, +Inf and -Inf are legal values and kept as such. */
  value: number;
  timestamp_ms: number | null;
}

export type PromType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped' | 'info' | 'stateset' | 'gaugehistogram';
const TYPES: ReadonlySet<string> = new Set([
  'counter',
  'gauge',
  'histogram',
  'summary',
  'untyped',
  'unknown',
  'info',
  'stateset',
  'gaugehistogram',
]);

export interface PromFamily {
  name: string;
  type: PromType;
  help: string | null;
  unit: string | null;
}

export interface PromParse {
  samples: PromSample[];
  /** Lines that were not a comment, blank, or a well-formed sample. */
  malformed: number;
}

export interface PromExposition extends PromParse {
  /** Declared families (# TYPE / # HELP), by family name. */
  families: Map<string, PromFamily>;
  /** Each sample's family name (parallel to `samples`): the sample name less its type's suffix. */
  familyOf: string[];
  /** The body ended with OpenMetrics' `# EOF`. */
  openmetrics: boolean;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function parseValue(s: string): number | undefined {
  if (s === 'NaN') return NaN;
  if (s === '+Inf' || s === 'Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (!NUMBER.test(s)) return undefined;
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
    if (Object.prototype.hasOwnProperty.call(labels, m[0])) return undefined; // a label twice is not a series
    labels[m[0]] = value;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') return undefined;
  }
}

/**
 * Parses one sample line; undefined when it is malformed. `openmetrics`: timestamps are float
 * seconds (else integer ms) and an exemplar (` # {…} v [t]`) may follow the value.
 */
export function parseSampleLine(line: string, openmetrics = false): PromSample | undefined {
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
  let tail = line.slice(i);
  if (!/^\s/.test(tail)) return undefined;
  if (openmetrics) {
    const ex = tail.indexOf(' # {');
    if (ex !== -1) tail = tail.slice(0, ex);
  }
  const rest = tail.trim().split(/\s+/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') return undefined;
  const value = parseValue(rest[0]);
  if (value === undefined) return undefined;
  let timestamp_ms: number | null = null;
  if (rest.length === 2) {
    if (openmetrics) {
      if (!NUMBER.test(rest[1])) return undefined;
      timestamp_ms = Number(rest[1]) * 1000;
    } else {
      if (!/^-?\d+$/.test(rest[1])) return undefined;
      timestamp_ms = Number(rest[1]);
    }
  }
  return { name: m[0], labels, value, timestamp_ms };
}

/** Parses a whole exposition's samples; `keep` filters them by metric name (all when omitted). */
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

/** Sample-name suffixes per family type (OpenMetrics names counters `x_total`, with `x_created`). */
const SUFFIXES: Record<string, readonly string[]> = {
  counter: ['_total', '_created'],
  histogram: ['_bucket', '_sum', '_count', '_created'],
  gaugehistogram: ['_bucket', '_gsum', '_gcount'],
  summary: ['_sum', '_count', '_created'],
  info: ['_info'],
};

function unescapeHelp(s: string): string {
  return s.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

/**
 * Parses a whole exposition with its metadata: families from # TYPE / # HELP / # UNIT, each
 * sample assigned to its family (histogram `_bucket`/`_sum`/`_count`, counter `_total`, …).
 * A sample of no declared family is its own `untyped` family. A second # TYPE for a family, or an
 * unknown type, is a malformed line. OpenMetrics is recognised by its content type or `# EOF`.
 */
export function parseExposition(text: string, contentType = ''): PromExposition {
  const openmetrics = isOpenMetrics(text, contentType);
  const families = new Map<string, PromFamily>();
  const typed = new Set<string>();
  const samples: PromSample[] = [];
  const familyOf: string[] = [];
  let malformed = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const t = line.trim();
    if (t === '') continue;
    if (t.startsWith('#')) {
      if (!applyComment(t, families, typed)) malformed++;
      continue;
    }
    const s = parseSampleLine(t, openmetrics);
    if (!s) {
      malformed++;
      continue;
    }
    samples.push(s);
    familyOf.push(familyName(s.name, families));
  }
  return { samples, malformed, families, familyOf, openmetrics };
}

export function isOpenMetrics(text: string, contentType: string): boolean {
  return contentType.includes('openmetrics') || /(^|\n)# EOF\s*$/.test(text);
}

/**
 * Applies one comment line (# HELP / # TYPE / # UNIT; others ignored) to `families`; false when it
 * is malformed (an unknown type, or a second # TYPE for a family: `typed` holds those seen).
 */
export function applyComment(t: string, families: Map<string, PromFamily>, typed: Set<string>): boolean {
  const m = /^#\s+(HELP|TYPE|UNIT)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\s+(.*))?$/.exec(t);
  if (!m) return true; // a plain comment, or # EOF
  const [, kind, name, arg = ''] = m;
  const family = (): PromFamily => {
    let f = families.get(name);
    if (!f) {
      f = { name, type: 'untyped', help: null, unit: null };
      families.set(name, f);
    }
    return f;
  };
  if (kind === 'HELP') family().help = unescapeHelp(arg);
  else if (kind === 'UNIT') family().unit = arg === '' ? null : arg;
  else {
    const type = arg.trim().toLowerCase();
    if (!TYPES.has(type) || typed.has(name)) return false;
    typed.add(name);
    family().type = type === 'unknown' ? 'untyped' : (type as PromType);
  }
  return true;
}

/** A sample's family: its own name when declared, else its name less its declared type's suffix, else itself (untyped). */
export function familyName(sample: string, families: Map<string, PromFamily>): string {
  const own = families.get(sample);
  if (own && own.type !== 'untyped') return sample;
  for (const [type, suffixes] of Object.entries(SUFFIXES)) {
    for (const suffix of suffixes) {
      if (!sample.endsWith(suffix)) continue;
      const base = families.get(sample.slice(0, -suffix.length));
      if (base && base.type === type) return base.name;
    }
  }
  if (!own) families.set(sample, { name: sample, type: 'untyped', help: null, unit: null });
  return sample;
}
