// `merge` building blocks (issue 18): stamps moved onto one timeline exactly, HDR histograms merged
// bit-identically to one histogram of every value, and chrony's tracking line read.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { MetricHistogram } from '../../../src/metrics/core/histogram.js';
import { shiftRecordLine, timelineShift } from '../../../src/run/merge/merge.js';
import type { ShardInput } from '../../../src/run/merge/merge-inputs.js';
import { parseChronyTracking } from '../../../src/run/single/shard-start.js';

const input = (monotonic_ns: bigint, unix_ns: bigint) => ({ anchor: { monotonic_ns, unix_ns } }) as ShardInput;

describe('timelineShift and shiftRecordLine', () => {
  it('maps a shard’s monotonic stamps onto the first shard’s timeline through the wall anchors', () => {
    const ref = input(5_000_000_000n, 1_796_000_000_000_000_000n);
    // The other host booted 1000 s earlier and its wall clock reads 3 ms ahead.
    const other = input(1_005_000_000_000n, 1_796_000_000_003_000_000n);
    const shift = timelineShift(other, ref);
    // The other's anchor instant lands 3 ms after the reference's anchor.
    expect(other.anchor.monotonic_ns + shift).toBe(ref.anchor.monotonic_ns + 3_000_000n);
    expect(timelineShift(ref, ref)).toBe(0n);
  });

  it('moves every stamp (beyond 2^53 too) and the chunk list, leaves durations, and tags the shard', () => {
    const line =
      '{"index":3,"phase":"profiling","credit_issued_ns":9007199254740993,"targeted_start_ns":null,"start_ns":9007199254740995,' +
      '"end_ns":9007199254741999,"last_content_ns":9007199254741990,"status":"ok","metrics":{"request_latency":{"value":0.001,"unit":"ms"}},' +
      '"chunk_ns":[9007199254741000,9007199254741500]}';
    const out = JSON.parse(
      shiftRecordLine(line, -7n, 2)
        .replace(/(_ns":)(\d+)/g, '$1"$2"')
        .replace(/\[(\d+),(\d+)\]/, '["$1","$2"]'),
    );
    expect(out.credit_issued_ns).toBe('9007199254740986');
    expect(out.start_ns).toBe('9007199254740988');
    expect(out.end_ns).toBe('9007199254741992');
    expect(out.last_content_ns).toBe('9007199254741983');
    expect(out.targeted_start_ns).toBeNull();
    expect(out.chunk_ns).toEqual(['9007199254740993', '9007199254741493']);
    expect(out.metrics.request_latency.value).toBe(0.001);
    expect(out.shard).toBe(2);
  });
});

describe('HDR merge', () => {
  it('the shards’ exported histograms merged encode bit-identically to one histogram of all values', () => {
    const rng = new Rng(11);
    const values = Array.from({ length: 5000 }, () => Math.exp(rng.normal(16, 1.5)));
    for (const n of [1, 2, 3, 7]) {
      const parts = Array.from({ length: n }, () => new MetricHistogram('ns'));
      values.forEach((v, i) => parts[i % n].add(v));
      const merged = MetricHistogram.fromExport(parts[0].toExport());
      for (const p of parts.slice(1)) merged.merge(MetricHistogram.fromExport(p.toExport()));
      const one = new MetricHistogram('ns');
      for (const v of values) one.add(v);
      expect(merged.toExport().encoded).toBe(one.toExport().encoded);
      const ps = [1, 50, 90, 99, 99.9];
      expect(merged.percentiles(ps)).toEqual(one.percentiles(ps));
    }
  });
});

describe('parseChronyTracking', () => {
  it('reads the offset (positive: this host ahead) and a bound from root delay and dispersion', () => {
    const csv = 'A9FEA97B,169.254.169.123,4,1733083200.1,-0.000012000,0.000001,0.000010,1.2,0.0,0.1,0.000400,0.000100,64.0,Normal\n';
    const c = parseChronyTracking(csv)!;
    expect(c.source).toBe('chrony');
    expect(c.offset_ms).toBeCloseTo(0.012, 9);
    expect(c.uncertainty_ms).toBeCloseTo(0.3, 9);
    expect(parseChronyTracking('506 Cannot talk to daemon')).toBeNull();
  });
});
