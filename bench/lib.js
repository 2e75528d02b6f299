// Shared helpers for the microbenchmarks (plain ESM, no build step).
//
// A bench module (`bench/<name>.bench.js`) exports:
//   export const description = 'one line';
//   export async function run(ctx) -> { tables: Table[], notes?: string[] }
// where ctx = { native, nativeSource, dist, quick, log } and
// Table = { title, columns: string[], rows: (string|number)[][] }.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** CLOCK_MONOTONIC ns, the project's one clock. */
export const now = () => process.hrtime.bigint();

/**
 * Loads the addon through the compiled TS loader (dist/native.js) when it is
 * built, so benches exercise the same path as the CLI; else the raw .node file.
 */
export async function loadNative() {
  const dist = path.join(root, 'dist', 'native.js');
  if (existsSync(dist)) {
    const mod = await import(pathToFileURL(dist).href);
    return { native: mod.native, source: 'dist/native.js' };
  }
  const file = path.join(root, 'build', 'Release', 'servebench_native.node');
  try {
    return { native: createRequire(import.meta.url)(file), source: path.relative(root, file) };
  } catch (err) {
    throw new Error(`the servebench native addon is not built (${String(err.message).split('\n')[0]}); run \`npx node-gyp rebuild\``, {
      cause: err,
    });
  }
}

/** Imports a compiled module from dist/ (e.g. 'transport/sse.js'), or null if dist is not built. */
export async function importDist(rel) {
  const file = path.join(root, 'dist', rel);
  return existsSync(file) ? import(pathToFileURL(file).href) : null;
}

/**
 * Times `fn` `reps` times after `warmup` untimed calls; returns ns per rep.
 * Each rep starts after a GC when --expose-gc is on, so one rep's garbage is
 * not billed to the next.
 */
export function measure(fn, { reps = 9, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const out = [];
  for (let i = 0; i < reps; i++) {
    globalThis.gc?.();
    const t0 = now();
    fn();
    out.push(Number(now() - t0));
  }
  return out;
}

/**
 * Times several functions that do the same work, round-robin: rep i of each
 * runs back to back, so a burst of load from elsewhere on a shared machine
 * hits all of them alike and their ratio stays meaningful. Returns ns per rep
 * for each function, in order.
 */
export function measureInterleaved(fns, { reps = 9, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) fn();
  const out = fns.map(() => []);
  for (let i = 0; i < reps; i++) {
    fns.forEach((fn, k) => {
      globalThis.gc?.();
      const t0 = now();
      fn();
      out[k].push(Number(now() - t0));
    });
  }
  return out;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Spread of the samples around the median, for judging noise: (max - min) / median. */
export function spread(xs) {
  return (Math.max(...xs) - Math.min(...xs)) / median(xs);
}

/** 1234567 -> "1.23 M" (SI, 3 significant digits). */
export function si(x, unit = '') {
  if (!Number.isFinite(x)) return String(x);
  const steps = [
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [div, p] of steps) {
    if (Math.abs(x) >= div) return `${(x / div).toPrecision(3)} ${p}${unit}`;
  }
  return `${x.toPrecision(3)} ${unit}`.trimEnd();
}

/** ns -> "12.3 ms" style. */
export function duration(ns) {
  if (ns >= 1e9) return `${(ns / 1e9).toPrecision(3)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

/** Ratio as "12.3×". */
export function ratio(a, b) {
  return `${(a / b).toPrecision(3)}×`;
}

/** Formats a table: first column left-aligned, the others right-aligned. */
export function formatTable({ title, columns, rows }) {
  const cells = [columns, ...rows.map((r) => r.map(String))];
  const widths = columns.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r) => r.map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [title, line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/** Seeded PRNG (mulberry32) so generated workloads are the same every run. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
