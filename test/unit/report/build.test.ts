// The report's page built from a 10,000-request run: under 2 MB with the per-request points
// down-sampled as the page says; the knee of a sweep; secrets never on the page.
import { describe, expect, it } from 'vitest';
import type { RecordColumns, RunExports } from '../../../src/export/read-run.js';
import { defaultRegistry } from '../../../src/metrics/catalogue.js';
import { MetricHistogram } from '../../../src/metrics/core/histogram.js';
import { buildReport } from '../../../src/report/build.js';
import { renderPage } from '../../../src/report/page.js';
import { kneeIndex } from '../../../src/report/sweep.js';
import { MAX_POINTS_PER_RUN } from '../../../src/report/timeline.js';
import { rng as seeded } from '../../helpers/rng.js';
import { emptyRecordColumns } from '../../../src/records/read.js';

function bigRun(n: number): RunExports {
  const rand = seeded(11);
  const rec: RecordColumns = emptyRecordColumns();
  const hist = {
    time_to_first_token: new MetricHistogram('ns'),
    inter_token_latency: new MetricHistogram('ns'),
    request_latency: new MetricHistogram('ns'),
  };
  const perUser = new MetricHistogram('tokens/s/user');
  for (let i = 0; i < n; i++) {
    const status = i % 97 === 0 ? 'error' : i % 89 === 0 ? 'cancelled' : 'ok';
    const start = (i / n) * 120 + rand() * 0.01;
    const ttft = 20 + rand() * 200;
    const latency = ttft + 500 + rand() * 300;
    rec.phase.push('profiling');
    rec.status.push(status);
    rec.errorType.push(status === 'error' ? 'http_5xx' : null);
    rec.start_s.push(start);
    rec.end_s.push(start + latency / 1000);
    rec.ttft_ms.push(status === 'ok' ? ttft : null);
    rec.latency_ms.push(status === 'ok' ? latency : null);
    rec.output_tokens.push(status === 'ok' ? 128 : null);
    rec.input_tokens.push(512);
    if (status === 'ok') {
      hist.time_to_first_token.add(ttft * 1e6);
      hist.inter_token_latency.add(((latency - ttft) / 127) * 1e6);
      hist.request_latency.add(latency * 1e6);
      perUser.add(127 / ((latency - ttft) / 1000));
    }
  }
  const metrics = Object.fromEntries(
    [...Object.entries(hist), ['output_token_throughput_per_user', perUser]].map(([t, h]) => [t, (h as MetricHistogram).toExport()]),
  );
  return {
    dir: '/runs/big',
    label: 'big',
    origin_ns: 0,
    records: rec,
    gpu: null,
    histograms: { significant_digits: 3, metrics },
    profile: {
      schema_version: 1,
      metrics: {},
      counts: {
        issued: n,
        succeeded: rec.status.filter((s) => s === 'ok').length,
        errored: rec.status.filter((s) => s === 'error').length,
        cancelled: rec.status.filter((s) => s === 'cancelled').length,
      },
      config: {
        url: 'http://user:hunter2secret@server:8000',
        api_key: 'sk-live-abcdef123456',
        headers: { 'x-api-key': 'hdr-secret-999', accept: 'text/event-stream' },
      },
      run: { start_ns: 0n, end_ns: 121_000_000_000n, wall_anchor: null },
      harness: { warnings: ['harness: the client was the bottleneck'] },
    },
  };
}

describe('report page', () => {
  it('a 10,000-request run: under 2 MB, per-request points down-sampled as stated, the harness warning shown, secrets not', () => {
    const run = bigRun(10_000);
    const model = buildReport({ kind: 'run', runs: [run] }, defaultRegistry(), '0.1.0');
    const html = renderPage(model);
    expect(Buffer.byteLength(html)).toBeLessThan(2 * 1024 * 1024);
    const scatter = model.sections.flatMap((s) => s.charts).find((c) => c.id === 'scatter-ttft')!;
    expect(scatter.note).toMatch(new RegExp(`at most ${MAX_POINTS_PER_RUN.toLocaleString('en')} per run and status`));
    expect(scatter.note).toMatch(/big ok: 1 in 3 of 9\d{3} kept/);
    // Every 3rd success is kept, none merged with another at the same start time.
    const ok = run.records!.status.filter((s) => s === 'ok').length;
    expect(scatter.data[1].filter((v) => v !== null).length).toBe(Math.ceil(ok / 3));
    // Every error and cancellation is kept (there are fewer than the limit).
    const errors = scatter.data[2].filter((v) => v !== null).length;
    expect(errors).toBe(run.records!.status.filter((s) => s === 'error').length);
    expect(html).toContain('harness: the client was the bottleneck');
    for (const secret of ['hunter2secret', 'sk-live-abcdef123456', 'hdr-secret-999']) expect(html).not.toContain(secret);
    expect(html).toContain('text/event-stream');
  });

  it('GPU power and energy plots only where GPU samples exist, one series per GPU', () => {
    const run = bigRun(200);
    const none = buildReport({ kind: 'run', runs: [run] }, defaultRegistry(), '0.1.0');
    expect(none.sections.flatMap((s) => s.charts).some((c) => c.id.startsWith('gpu-'))).toBe(false);
    expect(none.notes.join(' ')).toMatch(/No GPU samples/);
    const gpu = ['GPU-0', 'GPU-1'].flatMap((g, k) =>
      Array.from({ length: 50 }, (_, i) => ({ gpu: g, t_s: i * 0.05, power_w: 300 + k * 10 + i, energy_j: 1000 + i * 15 })),
    );
    const model = buildReport({ kind: 'run', runs: [{ ...run, gpu }] }, defaultRegistry(), '0.1.0');
    const charts = model.sections.flatMap((s) => s.charts).filter((c) => c.id.startsWith('gpu-'));
    expect(charts.map((c) => [c.id, c.series.length])).toEqual([
      ['gpu-power', 2],
      ['gpu-energy', 2],
    ]);
    // Energy from the first sample on: 0 at the start, 49 × 15 J at the end.
    const energy = charts[1].data[1].filter((v) => v !== null);
    expect(energy[0]).toBe(0);
    expect(energy[energy.length - 1]).toBe(735);
  });

  it('the knee: the point farthest from the chord of the normalised curve', () => {
    // Latency flat, then climbing steeply: the knee is where it turns.
    expect(kneeIndex([100, 200, 300, 340, 350], [10, 11, 13, 40, 120])).toBe(2);
    expect(kneeIndex([1, 2, 3], [1, 2, 3])).toBeNull();
    expect(kneeIndex([1, 2], [1, 5])).toBeNull();
  });
});
