// The most requests in flight at one instant, from their [start, end] stamps (a sweep line).
export function peakInFlight(spans: readonly { start: bigint; end: bigint }[]): number {
  const edges = spans.flatMap((s) => [
    { t: s.start, d: 1 },
    { t: s.end, d: -1 },
  ]);
  // An end and a start at the same instant: the end first (the slot freed, then was taken).
  edges.sort((a, b) => (a.t === b.t ? a.d - b.d : a.t < b.t ? -1 : 1));
  let now = 0;
  let peak = 0;
  for (const e of edges) peak = Math.max(peak, (now += e.d));
  return peak;
}
