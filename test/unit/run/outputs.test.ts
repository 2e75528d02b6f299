// A run's outputs (run/single/output.ts): which outputs a run's flags give, in the order their
// export sections take, which of them sit on the per-request hot path, and what a few report.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildRunConfig, type ProfileFlags } from '../../../src/config/validate.js';
import type { BenchmarkResult } from '../../../src/load/benchmark.js';
import { RunControl } from '../../../src/load/control.js';
import type { MetricsSummary } from '../../../src/metrics/core/summary.js';
import type { ProcessedRecord } from '../../../src/model/processed-record.js';
import { CatalogueRun } from '../../../src/run/single/catalogue-run.js';
import { runOutputs } from '../../../src/run/single/outputs/index.js';
import { FirstErrorOutput } from '../../../src/run/single/outputs/summary.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import type { TransportRouter } from '../../../src/transport/router.js';

function outputsFor(flags: ProfileFlags) {
  const cfg = buildRunConfig(flags, {});
  const baseUrl = 'http://127.0.0.1:9';
  const dir = os.tmpdir();
  const log = () => {};
  const env = { baseUrl, tokenizer: { name: 'words' } as TextTokenizer, control: new RunControl(), dir, log };
  const transport = { name: 'undici' } as unknown as TransportRouter;
  const catalogue = new CatalogueRun(cfg, baseUrl, dir, log);
  const anchor = { monotonic_ns: 0n, unix_ns: 0n };
  return runOutputs({ cfg, env, mode: 'concurrency', transport, catalogue, clock: null, anchor });
}

describe("a run's outputs", () => {
  it('a plain run: the summary, server metrics, the run facts, the harness, the catalogue; none on the send path', () => {
    const o = outputsFor({ 'request-count': 10 });
    expect(o.list.map((x) => x.name)).toEqual([
      'summary',
      'first_error',
      'server_metrics',
      'run_identity',
      'harness',
      'phases',
      'catalogue',
    ]);
    expect(o.saturation).toBeNull();
    // No output watches the sends: the native slot gate may send them.
    expect(o.list.filter((x) => x.requestSent)).toEqual([]);
    expect(o.list.filter((x) => x.recordsSettled).map((x) => x.name)).toEqual(['summary', 'first_error']);
  });

  it('the flags add theirs, each where its export section belongs', () => {
    const o = outputsFor({ 'request-count': 10, model: 'a,b', 'slice-duration': 1, 'stop-on-over-saturation': true });
    expect(o.list.map((x) => x.name)).toEqual([
      'summary',
      'first_error',
      'timed_records',
      'server_metrics',
      'run_identity',
      'harness',
      'phases',
      'catalogue',
      'over_saturation',
      'breakdown',
      'timeslices',
    ]);
    expect(o.saturation).not.toBeNull();
    // The over-saturation watch counts sends as they go out: it alone keeps them on the JS path.
    expect(o.list.filter((x) => x.requestSent).map((x) => x.name)).toEqual(['over_saturation']);
    expect(o.list.filter((x) => x.requestDone).map((x) => x.name)).toEqual(['harness', 'over_saturation']);
  });

  it("the run's facts: sections in profile_export.json's order", async () => {
    const o = outputsFor({ 'request-count': 10 });
    const result = { warmup: null, profiling: null, interrupted: false } as unknown as BenchmarkResult;
    const run = { result, summary: {} as MetricsSummary, dir: os.tmpdir(), color: false };
    const keys: string[] = [];
    for (const x of o.list.filter((x) => x.name === 'run_identity' || x.name === 'phases')) {
      const r = await x.finish?.(run);
      keys.push(...Object.keys(r?.section ?? {}));
    }
    expect(keys).toEqual(['tokenizer', 'transport', 'load_mode', 'interrupted', 'credits', 'phases', 'measurement_window']);
  });

  it('first error: the first profiling record with an error, across batches; warmup errors are not it', () => {
    const out = new FirstErrorOutput();
    const rec = (phase: string, error: string | null) =>
      ({ raw: { credit: { phase } }, error: error && { type: error, message: error, http_status: null } }) as unknown as ProcessedRecord;
    out.recordsSettled([rec('warmup', 'warm'), rec('profiling', null)]);
    expect(out.first).toBeNull();
    out.recordsSettled([rec('profiling', 'first'), rec('profiling', 'second')]);
    out.recordsSettled([rec('profiling', 'third')]);
    expect(out.first?.type).toBe('first');
  });
});
