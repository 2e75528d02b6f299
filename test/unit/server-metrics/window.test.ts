import { describe, expect, it } from 'vitest';
import { SeriesTable } from '../../../src/server-metrics/series.js';
import { bucketQuantile, counterStats, gaugeStats, histogramGroups, histogramStats, pointsOf } from '../../../src/server-metrics/window.js';

const MS = 1_000_000n;

function table(values: [number, string][]): SeriesTable {
  const t = new SeriesTable();
  for (const [ms, text] of values) t.addText(BigInt(ms) * MS, text);
  return t;
}

describe('gauges: time-weighted over the window', () => {
  it('holds each value until the next scrape, clipped to the window', () => {
    // 0 on [0,100), 10 on [100,400), 4 on [400, …): window [50, 450].
    const t = table([
      [0, 'g 0\n'],
      [100, 'g 10\n'],
      [400, 'g 4\n'],
    ]);
    const s = gaugeStats(pointsOf(t, t.idsOf('g'), 'sum'), { start_ns: 50n * MS, end_ns: 450n * MS })!;
    expect(s.avg).toBeCloseTo((0 * 50 + 10 * 300 + 4 * 50) / 400, 9);
    expect([s.min, s.max]).toEqual([0, 10]);
    expect(s.p50).toBe(10); // 10 held 75 % of the time
    expect(s.p90).toBe(10);
    expect(gaugeStats([], { start_ns: 0n, end_ns: 1n })).toBeNull();
  });

  it('sums or averages several series of one scrape', () => {
    const t = table([[0, 'g{r="0"} 2\ng{r="1"} 6\n']]);
    const ids = t.idsOf('g');
    expect(pointsOf(t, ids, 'sum')[0].v).toBe(8);
    expect(pointsOf(t, ids, 'mean', 100)[0].v).toBe(400);
  });
});

describe('counters: increase and rate, resets handled', () => {
  it('counts a drop as a restart from 0', () => {
    const t = table([
      [0, 'c_total 100\n'],
      [1000, 'c_total 150\n'],
      [2000, 'c_total 20\n'], // restarted: 20 new
      [3000, 'c_total 70\n'],
    ]);
    const k = counterStats(t, t.idsOf('c_total'), { start_ns: 0n, end_ns: 3000n * MS })!;
    expect(k.increase).toBe(50 + 20 + 50);
    expect(k.resets).toBe(1);
    expect(k.rate).toBeCloseTo(120 / 3, 9);
  });

  it('brackets the window with the last scrape at or before its start and the first at or after its end', () => {
    const t = table([
      [0, 'c_total 0\n'],
      [1000, 'c_total 10\n'],
      [2000, 'c_total 30\n'],
      [3000, 'c_total 60\n'],
    ]);
    expect(counterStats(t, t.idsOf('c_total'), { start_ns: 1500n * MS, end_ns: 2500n * MS })!.increase).toBe(50);
    expect(counterStats(t, t.idsOf('c_total'), { start_ns: 1000n * MS, end_ns: 2000n * MS })!.increase).toBe(20);
  });

  it('skips failed scrapes', () => {
    const t = table([[0, 'c_total 0\n']]);
    t.addFailure(1000n * MS, 'HTTP 500');
    t.addText(2000n * MS, 'c_total 40\n');
    expect(counterStats(t, t.idsOf('c_total'), { start_ns: 0n, end_ns: 2000n * MS })!.increase).toBe(40);
  });
});

describe('histograms: window delta buckets to percentiles', () => {
  const h = (a: number, b: number, inf: number, sum: number) =>
    `# TYPE h histogram\nh_bucket{le="0.1"} ${a}\nh_bucket{le="0.2"} ${b}\nh_bucket{le="+Inf"} ${inf}\nh_sum ${sum}\nh_count ${inf}\n`;

  it('subtracts the scrape before the window and interpolates inside the bucket', () => {
    const t = table([
      [0, h(100, 100, 100, 5)], // history before the run
      [1000, h(110, 140, 140, 12)], // the window: 10 in (0, 0.1], 30 in (0.1, 0.2]
    ]);
    const s = histogramStats(t, histogramGroups(t, 'h'), { start_ns: 0n, end_ns: 1000n * MS })!;
    expect(s.count).toBe(40);
    expect(s.sum).toBeCloseTo(7, 9);
    expect(s.p50!.bucket).toEqual([0.1, 0.2]);
    expect(s.p50!.value).toBeCloseTo(0.1 + (0.1 * (20 - 10)) / 30, 9);
    expect(s.buckets.map((b) => b.count)).toEqual([10, 40, 40]);
  });

  it('a reset (counts drop) takes the later scrape whole', () => {
    const t = table([
      [0, h(100, 100, 100, 5)],
      [1000, h(4, 4, 4, 0.2)],
    ]);
    expect(histogramStats(t, histogramGroups(t, 'h'), { start_ns: 0n, end_ns: 1000n * MS })!.count).toBe(4);
  });

  it('a percentile in the +Inf bucket is the highest finite bound', () => {
    expect(
      bucketQuantile(0.99, [
        { le: 1, count: 1 },
        { le: Infinity, count: 10 },
      ]),
    ).toEqual({ value: 1, bucket: [1, Infinity] });
    expect(bucketQuantile(0.5, [{ le: Infinity, count: 0 }])).toBeNull();
  });
});
