// The sweep line as one would write it in plain JS: the comparison point for native/timeline/timeline.cc in
// bench/timeline.bench.js, and the oracle of its randomised tests. Same definitions (native/timeline/timeline.h):
// each request is in prefill on [s, b) and in decode on [b, e) after clipping to the window; rates
// use the unclipped phases; events at one time apply together; a rate sum is exactly 0 when no
// request with a non-zero rate is in its phase. It shares no code with the native one: events are
// sorted with a comparator, every curve is kept per segment in typed arrays, and percentiles are
// exact, by sorting each curve's segments by value.

export const ROWS = [
  'concurrency',
  'decode_concurrency',
  'prefill_concurrency',
  'decode_throughput',
  'prefill_throughput',
  'total_throughput',
  'decode_throughput_per_user',
  'prefill_throughput_per_user',
  'tokens_in_flight',
  'active_decode_throughput',
  'active_prefill_throughput',
  'active_total_throughput',
  'active_decode_throughput_per_user',
  'active_prefill_throughput_per_user',
];

// [curve, mask] per row; masks: null (whole window), 'dc', 'pc', 'c' (> 0).
const VIEWS = [
  ['c', null],
  ['dc', null],
  ['pc', null],
  ['dt', null],
  ['pt', null],
  ['total', null],
  ['dpu', null],
  ['ppu', null],
  ['tif', null],
  ['dt', 'dc'],
  ['pt', 'pc'],
  ['total', 'c'],
  ['dpu', 'dc'],
  ['ppu', 'pc'],
];
const QUANTILES = [
  ['p50', 0.5],
  ['p90', 0.9],
  ['p95', 0.95],
  ['p99', 0.99],
];

/**
 * @param {{start: Float64Array, generationStart: Float64Array, end: Float64Array, isl: Float64Array, osl: Float64Array}} cols
 * @param {number} w0 window start
 * @param {number} w1 window end
 */
export function jsTimeline(cols, w0, w1) {
  const n = cols.start.length;
  // Events: time, kind (0 open, 1 prefill -> decode, 2 close), request; and per-request data.
  const time = new Float64Array(3 * n);
  const kind = new Uint8Array(3 * n);
  const who = new Uint32Array(3 * n);
  const prate = new Float64Array(n);
  const drate = new Float64Array(n);
  const ptok = new Float64Array(n);
  const dtok = new Float64Array(n);
  const hasP = new Uint8Array(n);
  const hasD = new Uint8Array(n);
  let events = 0;
  let requests = 0;
  for (let i = 0; i < n; i++) {
    const s0 = cols.start[i];
    const g0 = cols.generationStart[i];
    const e0 = cols.end[i];
    const isl = cols.isl[i];
    const osl = cols.osl[i];
    const s = Math.max(s0, w0);
    const e = Math.min(e0, w1);
    if (!(s < e)) continue;
    requests++;
    const gen = !Number.isNaN(g0);
    const b = gen ? Math.min(Math.max(g0, s), e) : e;
    const pdur = (gen ? g0 : e0) - s0;
    const ddur = gen ? e0 - g0 : 0;
    prate[i] = pdur > 0 && !Number.isNaN(isl) ? (isl * 1e9) / pdur : 0;
    drate[i] = ddur > 0 && !Number.isNaN(osl) ? (Math.max(osl - 1, 0) * 1e9) / ddur : 0;
    ptok[i] = Number.isNaN(isl) ? 0 : isl;
    dtok[i] = ptok[i] + (Number.isNaN(osl) ? 0 : osl);
    hasP[i] = b > s ? 1 : 0;
    hasD[i] = b < e ? 1 : 0;
    time[events] = s;
    kind[events] = 0;
    who[events++] = i;
    if (hasP[i] && hasD[i]) {
      time[events] = b;
      kind[events] = 1;
      who[events++] = i;
    }
    time[events] = e;
    kind[events] = 2;
    who[events++] = i;
  }
  const order = new Uint32Array(events);
  for (let k = 0; k < events; k++) order[k] = k;
  order.sort((a, b) => time[a] - time[b]);

  // The curves, one value per segment of positive duration (at most one segment per event + 1).
  const cap = events + 1;
  const segs = {};
  for (const k of ['dur', 'c', 'dc', 'pc', 'dt', 'pt', 'total', 'dpu', 'ppu', 'tif']) segs[k] = new Float64Array(cap);
  let m = 0;
  let c = 0,
    dc = 0,
    pc = 0,
    np = 0,
    nd = 0,
    dt = 0,
    pt = 0,
    tif = 0;
  const emit = (d) => {
    segs.dur[m] = d;
    segs.c[m] = c;
    segs.dc[m] = dc;
    segs.pc[m] = pc;
    segs.dt[m] = dt;
    segs.pt[m] = pt;
    segs.total[m] = dt + pt;
    segs.dpu[m] = dc > 0 ? dt / dc : 0;
    segs.ppu[m] = pc > 0 ? pt / pc : 0;
    segs.tif[m] = tif;
    m++;
  };
  const enterP = (i, sign) => {
    pc += sign;
    pt += sign * prate[i];
    tif += sign * ptok[i];
    np += prate[i] > 0 ? sign : 0;
  };
  const enterD = (i, sign) => {
    dc += sign;
    dt += sign * drate[i];
    tif += sign * dtok[i];
    nd += drate[i] > 0 ? sign : 0;
  };
  let prev = w0;
  for (let k = 0; k < events;) {
    const t = time[order[k]];
    if (t > prev) {
      emit(t - prev);
      prev = t;
    }
    for (; k < events && time[order[k]] === t; k++) {
      const i = who[order[k]];
      if (kind[order[k]] === 0) {
        c++;
        if (hasP[i]) enterP(i, 1);
        else enterD(i, 1);
      } else if (kind[order[k]] === 1) {
        enterP(i, -1);
        enterD(i, 1);
      } else {
        c--;
        if (hasD[i]) enterD(i, -1);
        else enterP(i, -1);
      }
    }
    if (np === 0) pt = 0;
    if (nd === 0) dt = 0;
    if (c === 0) tif = 0;
  }
  if (w1 > prev) emit(w1 - prev);

  // Each curve's segments sorted by value once; an Active row walks its curve's order, skipping
  // the segments outside its mask.
  const sorted = {};
  const byValue = (curve) => {
    if (!sorted[curve]) {
      const values = segs[curve];
      const idx = new Uint32Array(m);
      for (let j = 0; j < m; j++) idx[j] = j;
      sorted[curve] = idx.sort((x, y) => values[x] - values[y]);
    }
    return sorted[curve];
  };
  const rows = {};
  VIEWS.forEach(([curve, mask], r) => {
    const values = segs[curve];
    const inside = (j) => mask === null || segs[mask][j] > 0;
    let weight = 0;
    let sum = 0;
    let max = 0;
    for (let j = 0; j < m; j++) {
      if (!inside(j)) continue;
      weight += segs.dur[j];
      sum += values[j] * segs.dur[j];
      max = Math.max(max, values[j]);
    }
    const total = weight;
    // Effective rows weigh over the window itself, as the native sweep does.
    if (mask === null) weight = w1 - w0;
    const row = { avg: NaN, p50: NaN, p90: NaN, p95: NaN, p99: NaN, max: NaN, weight_ns: weight };
    if (weight > 0 && m > 0) {
      row.avg = sum / weight;
      row.max = max;
      const idx = byValue(curve);
      let q = 0;
      let cum = 0;
      let last = NaN;
      for (let k = 0; k < m && q < QUANTILES.length; k++) {
        const j = idx[k];
        if (!inside(j)) continue;
        cum += segs.dur[j];
        last = values[j];
        for (; q < QUANTILES.length && cum >= QUANTILES[q][1] * total; q++) row[QUANTILES[q][0]] = values[j];
      }
      for (; q < QUANTILES.length; q++) row[QUANTILES[q][0]] = last;
    }
    rows[ROWS[r]] = row;
  });
  return { requests, segments: m, window_ns: w1 - w0, rows };
}
