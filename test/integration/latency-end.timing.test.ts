// request_latency ends at the last content response (AIPerf's content_responses[-1]), not at the
// last byte: against a mock process that sends usage 40 ms after the last token and [DONE] 20 ms
// after that, the late events are outside the latency and everything built on it, and end_ns
// (the last byte, which the HTTP trace uses) still comes after them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { remeasured } from '../helpers/remeasure.js';

const USAGE_DELAY_MS = 40;
const DONE_DELAY_MS = 20;
const ITL_MS = 5;
const OSL = 10;

interface Line {
  /** The *_ns stamps, exact. */
  ns: Record<string, bigint>;
  phase: string;
  status: string;
  metrics: Record<string, { value: number }>;
}

/** records.jsonl with every integer *_ns field kept exact (they can exceed 2^53). */
function readRecords(dir: string): Line[] {
  return fs
    .readFileSync(path.join(dir, 'records.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((text) => {
      const ns: Record<string, bigint> = {};
      for (const m of text.matchAll(/"(\w+_ns)":(\d+)/g)) ns[m[1]] = BigInt(m[2]);
      const o = JSON.parse(text);
      return { ns, phase: o.phase, status: o.status, metrics: o.metrics };
    });
}

/** An exact stamp from profile_export.json (written as an integer of up to 19 digits). */
function exportStamp(dir: string, tag: string): bigint {
  const text = fs.readFileSync(path.join(dir, 'profile_export.json'), 'utf8');
  const m = new RegExp(`"${tag}":\\s*\\{[^}]*"avg":\\s*(\\d+)`).exec(text);
  if (!m) throw new Error(`${tag} not in profile_export.json`);
  return BigInt(m[1]);
}

const ms = (ns: bigint) => Number(ns) / 1e6;

describe('request_latency against late usage and [DONE] (mock process)', () => {
  let mock: SpawnedMock;
  // Both runs; a failed test takes them again before its retry.
  const measured = remeasured(async () => {
    const dirs: Record<'undici' | 'native', string> = { undici: '', native: '' };
    for (const transport of ['undici', 'native'] as const) {
      dirs[transport] = tmpDir();
      const r = await runCli([
        'profile',
        '--url',
        mock.url,
        '--model',
        'mock-model',
        '--ui',
        'none',
        '--osl',
        String(OSL),
        '--concurrency',
        '2',
        '--request-count',
        '6',
        '--transport',
        transport,
        '--artifact-dir',
        dirs[transport],
      ]);
      expect(r.code, r.stderr).toBe(0);
    }
    return dirs;
  });

  beforeAll(async () => {
    mock = await spawnMock([
      '--ttft-ms',
      '20',
      '--itl-ms',
      String(ITL_MS),
      '--usage-delay-ms',
      String(USAGE_DELAY_MS),
      '--done-delay-ms',
      String(DONE_DELAY_MS),
    ]);
    await measured.prime();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  for (const transport of ['undici', 'native'] as const) {
    describe(transport, () => {
      it('records the last content response apart from the last byte; the latency ends at the first', async () => {
        const dirs = await measured.get();
        const recs = readRecords(dirs[transport]).filter((r) => r.phase === 'profiling');
        expect(recs).toHaveLength(6);
        for (const r of recs) {
          expect(r.status).toBe('ok');
          const { start_ns, last_content_ns, end_ns } = r.ns;
          expect(last_content_ns).toBeGreaterThan(start_ns);
          // The usage chunk and [DONE] come 60 ms after the last token; the last byte after them.
          expect(ms(end_ns - last_content_ns)).toBeGreaterThan(USAGE_DELAY_MS + DONE_DELAY_MS - 5);
          expect(r.metrics.request_latency.value).toBeCloseTo(ms(last_content_ns - start_ns), 6);
        }
      });

      it('ITL, per-user and e2e throughput, decode duration and effective latency follow it', async () => {
        const dirs = await measured.get();
        for (const r of readRecords(dirs[transport]).filter((x) => x.phase === 'profiling')) {
          const m = (t: string) => r.metrics[t].value;
          expect(m('output_sequence_length')).toBe(OSL);
          expect(m('decode_duration')).toBeCloseTo(m('request_latency') - m('time_to_first_token'), 6);
          expect(m('inter_token_latency')).toBeCloseTo((m('request_latency') - m('time_to_first_token')) / (OSL - 1), 6);
          // Below what it would be to the last byte by the closing delays over OSL − 1 (≈ 6.7 ms).
          const toLastByte = (ms(r.ns.end_ns - r.ns.start_ns) - m('time_to_first_token')) / (OSL - 1);
          expect(toLastByte - m('inter_token_latency')).toBeGreaterThan((USAGE_DELAY_MS + DONE_DELAY_MS - 5) / (OSL - 1));
          expect(m('output_token_throughput_per_user')).toBeCloseTo(1000 / m('inter_token_latency'), 6);
          expect(m('e2e_output_token_throughput')).toBeCloseTo(OSL / (m('request_latency') / 1000), 6);
          const wait = ms(r.ns.start_ns - r.ns.credit_issued_ns);
          expect(m('effective_latency')).toBeCloseTo(m('request_latency') + wait, 3);
        }
      });

      it('max_response_timestamp is max(start + request_latency), and the throughputs use that window', async () => {
        const dirs = await measured.get();
        const dir = dirs[transport];
        const recs = readRecords(dir).filter((r) => r.phase === 'profiling');
        const maxContent = recs.reduce((a, r) => (r.ns.last_content_ns > a ? r.ns.last_content_ns : a), 0n);
        const maxEnd = recs.reduce((a, r) => (r.ns.end_ns > a ? r.ns.end_ns : a), 0n);
        const minStart = recs.reduce((a, r) => (a === 0n || r.ns.start_ns < a ? r.ns.start_ns : a), 0n);
        expect(exportStamp(dir, 'max_response_timestamp')).toBe(maxContent);
        expect(maxEnd - maxContent).toBeGreaterThan(BigInt((USAGE_DELAY_MS + DONE_DELAY_MS - 5) * 1e6));
        const j = readJson(path.join(dir, 'profile_export.json'));
        const seconds = Number(maxContent - minStart) / 1e9;
        expect(j.metrics.benchmark_duration.avg).toBeCloseTo(seconds, 9);
        expect(j.metrics.output_token_throughput.avg).toBeCloseTo((6 * OSL) / seconds, 6);
        expect(j.metrics.request_throughput.avg).toBeCloseTo(6 / seconds, 6);
      });
    });
  }

  it('the HTTP trace still runs to the last byte (undici)', async () => {
    const dirs = await measured.get();
    // Without --show-trace-timing the trace metrics are exported all the same.
    for (const r of readRecords(dirs.undici).filter((x) => x.phase === 'profiling')) {
      if (!r.metrics.http_req_total) continue;
      expect(r.metrics.http_req_total.value).toBeCloseTo(ms(r.ns.end_ns - r.ns.start_ns), 6);
    }
  });

  it('servebench analyze recomputes the same from records.jsonl', async () => {
    const dirs = await measured.get();
    const dir = dirs.undici;
    const out = path.join(dir, 'rebuilt');
    const r = await runCli(['analyze', path.join(dir, 'records.jsonl'), '--artifact-dir', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(exportStamp(out, 'max_response_timestamp')).toBe(exportStamp(dir, 'max_response_timestamp'));
    const a = readJson(path.join(dir, 'profile_export.json')).metrics;
    const b = readJson(path.join(out, 'profile_export.json')).metrics;
    for (const tag of [
      'request_latency',
      'inter_token_latency',
      'benchmark_duration',
      'output_token_throughput',
      'effective_concurrency',
    ]) {
      expect(b[tag].avg, tag).toBeCloseTo(a[tag].avg, 6);
    }
  });
});

describe('non-streaming: the body is the one content response', () => {
  let mock: SpawnedMock;
  // The run; a failed test takes it again before its retry.
  const measured = remeasured(async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--model',
      'mock-model',
      '--ui',
      'none',
      '--no-streaming',
      '--osl',
      '8',
      '--concurrency',
      '1',
      '--request-count',
      '3',
      '--artifact-dir',
      dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    return dir;
  });
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '2', '--usage-delay-ms', '50', '--done-delay-ms', '50']);
    await measured.prime();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('request_latency runs to the body (end_ns); the stream-only delays do not apply', async () => {
    const dir = await measured.get();
    for (const r of readRecords(dir).filter((x) => x.phase === 'profiling')) {
      expect(r.ns.last_content_ns).toBe(r.ns.end_ns);
      expect(r.metrics.request_latency.value).toBeCloseTo(ms(r.ns.end_ns - r.ns.start_ns), 6);
      // TTFT 10 ms + 7 × 2 ms: far below the 100 ms of closing delays a stream would have had.
      expect(r.metrics.request_latency.value).toBeLessThan(80);
    }
  });
});
