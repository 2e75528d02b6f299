// The AIPerf catalogue end to end: `servebench profile` as a real process against mock processes.
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const common = ['--model', 'mock-model', '--ui', 'none'];

function profiling(dir: string): any[] {
  return readJsonl(path.join(dir, 'records.jsonl')).filter((r) => r.phase === 'profiling');
}

describe('network-adjusted latencies and HTTP trace (TTFT 30 ms)', () => {
  let mock: SpawnedMock;
  let dir: string;
  let out: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '30', '--itl-ms', '5']);
    dir = tmpDir();
    out = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '10',
      '--concurrency',
      '3',
      '--request-count',
      '12',
      // The HTTP trace comes from the undici transport (the native engine does not fill it yet).
      '--network-latency-mean',
      '5',
      '--show-trace-timing',
      '--transport',
      'undici',
      '--artifact-dir',
      dir,
    ]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('--network-latency-mean 5 shifts every TTFT statistic by exactly 5 ms and keeps the spread', () => {
    expect(out.code, out.stderr).toBe(0);
    const m = readJson(path.join(dir, 'profile_export.json')).metrics;
    expect(m.network_rtt).toEqual({ unit: 'ms', avg: 5 });
    for (const [src, adj] of [
      ['time_to_first_token', 'network_adjusted_time_to_first_token'],
      ['request_latency', 'network_adjusted_request_latency'],
      ['time_to_first_output_token', 'network_adjusted_time_to_first_output_token'],
    ]) {
      for (const stat of ['avg', 'min', 'max', 'p1', 'p5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99']) {
        expect(m[adj][stat], `${adj}.${stat}`).toBeCloseTo(m[src][stat] - 5, 9);
      }
      expect(m[adj].std).toBe(m[src].std);
      expect(m[adj].count).toBe(m[src].count);
    }
    // The raw metrics are preserved as measured (TTFT ≥ the mock's 30 ms).
    expect(m.time_to_first_token.min).toBeGreaterThanOrEqual(29.5);
    expect(out.stderr).toContain('network RTT: 5 ms (given)');
  });

  it('the HTTP trace phases of a fresh connection sum to the total, which runs to the last byte', () => {
    const recs = profiling(dir);
    expect(recs).toHaveLength(12);
    const fresh = recs.filter((r) => r.metrics.http_req_connection_reused.value === 0);
    // Each of the 3 connections is opened once (keep-alive), by the first request sent on it.
    expect(fresh.length).toBeGreaterThanOrEqual(1);
    expect(fresh.length).toBeLessThanOrEqual(3);
    for (const r of recs) {
      const v = (t: string) => r.metrics[t].value as number;
      const sum = [
        'http_req_blocked',
        'http_req_dns_lookup',
        'http_req_connecting',
        'http_req_tls_handshaking',
        'http_req_sending',
        'http_req_waiting',
        'http_req_receiving',
      ]
        .map(v)
        .reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(v('http_req_total'), 6);
      // The trace runs to the last byte; request_latency ends at the last content chunk, before or with it.
      expect(v('http_req_total')).toBeCloseTo((Number(r.end_ns) - Number(r.start_ns)) / 1e6, 3);
      expect(v('http_req_total')).toBeGreaterThanOrEqual(v('request_latency') - 1e-6);
      expect(v('http_req_duration')).toBeCloseTo(v('http_req_sending') + v('http_req_waiting') + v('http_req_receiving'), 6);
      expect(v('http_req_data_sent')).toBeGreaterThan(r.bytes_sent);
      expect(v('http_req_data_received')).toBeGreaterThan(r.bytes_received);
      if (v('http_req_connection_reused') === 1) expect(v('http_req_connecting')).toBe(0);
    }
    for (const r of fresh) expect(r.metrics.http_req_connecting.value).toBeGreaterThan(0);
  });

  it('--show-trace-timing prints the HTTP trace table', () => {
    expect(out.stdout).toContain('HTTP Trace Metrics');
    expect(out.stdout).toContain('HTTP Waiting (TTFB) (ms)');
    expect(out.stdout).toContain('Network-Adjusted Time to First Token (ms)');
  });

  it('an RTT larger than the latencies clamps the adjusted values at 0, with a warning', async () => {
    const d = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '4',
      '--concurrency',
      '2',
      '--request-count',
      '4',
      '--network-latency-mean',
      '100000',
      '--artifact-dir',
      d,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const m = readJson(path.join(d, 'profile_export.json')).metrics;
    for (const stat of ['avg', 'min', 'max', 'p50', 'p99']) expect(m.network_adjusted_time_to_first_token[stat]).toBe(0);
    expect(m.network_adjusted_time_to_first_token.std).toBe(m.time_to_first_token.std);
    expect(r.stderr).toMatch(/warning: the network RTT .* clamped at 0/);
    expect(r.stdout).not.toContain('HTTP Trace Metrics');
  });

  it('--network-latency-automatic probes the target into network_latency.jsonl and subtracts the mean', async () => {
    const d = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '40',
      '--concurrency',
      '2',
      '--request-count',
      '6',
      '--network-latency-automatic',
      '--network-latency-ping-interval',
      '0.05',
      '--artifact-dir',
      d,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = readJson(path.join(d, 'profile_export.json'));
    const probes = readJsonl(path.join(d, 'network_latency.jsonl'));
    expect(probes.length).toBeGreaterThanOrEqual(2);
    expect(probes.every((p) => p.ok === true && p.rtt_ms > 0 && p.target === new URL(mock.url).host)).toBe(true);
    const mean = probes.reduce((a, p) => a + p.rtt_ms, 0) / probes.length;
    expect(j.network_latency).toMatchObject({ mode: 'automatic', ok: probes.length, failed: 0 });
    expect(j.metrics.network_rtt.avg).toBeCloseTo(mean, 6);
    expect(j.metrics.network_adjusted_time_to_first_token.p50).toBeCloseTo(Math.max(0, j.metrics.time_to_first_token.p50 - mean), 6);
  });
});

describe('goodput: a latency SLO that half the requests miss', () => {
  // Request latency ≈ TTFT + (OSL − 1) · ITL = 20 + (OSL − 1) · 20 ms. The requested lengths are
  // seeded N(20, 8), so about half are ≤ 20 tokens. The SLO sits halfway between OSL 20 (400 ms) and
  // OSL 21 (420 ms): 10 ms of margin either side for timer jitter.
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '20', '--itl-ms', '20']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('the good fraction is the share of requests at ≤ 20 tokens, near 0.5', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '20',
      '--osl-stddev',
      '8',
      '--concurrency',
      '8',
      '--request-count',
      '40',
      '--goodput',
      'request_latency:410',
      '--artifact-dir',
      dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const m = readJson(path.join(dir, 'profile_export.json')).metrics;
    const recs = profiling(dir);
    const short = recs.filter((x) => x.metrics.output_sequence_length.value <= 20).length;
    const fraction = m.good_request_fraction.avg;
    // Timer jitter could move at most a request or two across the 10 ms margin.
    expect(Math.abs(fraction * 40 - short)).toBeLessThanOrEqual(2);
    expect(fraction).toBeGreaterThan(0.3);
    expect(fraction).toBeLessThan(0.7);
    expect(m.good_request_count.avg).toBe(recs.filter((x) => x.metrics.request_latency.value <= 410).length);
    expect(m.goodput.avg).toBeCloseTo(m.good_request_count.avg / m.benchmark_duration.avg, 9);
    expect(r.stdout).toContain('Goodput (requests/s)');
  });
});

describe('speculative decoding from the mock (K = 4, P = 0.6)', () => {
  let mock: SpawnedMock;
  let dir: string;
  let out: Awaited<ReturnType<typeof runCli>>;
  // Drafts accepted in order with probability 0.6 each: E[j] = Σ_{i=1..4} 0.6^i = 1.3056.
  const EJ = [1, 2, 3, 4].reduce((a, i) => a + 0.6 ** i, 0);

  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '0', '--spec-decode-draft-len', '4', '--spec-decode-acceptance', '0.6']);
    dir = tmpDir();
    out = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '128',
      '--concurrency',
      '4',
      '--request-count',
      '40',
      '--artifact-dir',
      dir,
    ]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('match the configured acceptance within the stated tolerance', () => {
    expect(out.code, out.stderr).toBe(0);
    const m = readJson(path.join(dir, 'profile_export.json')).metrics;
    // ≈ 2200 verify steps: the per-step acceptance has sd ≈ 0.33, so the rate's standard error is
    // ≈ 0.7 points; ±3 points (plus the small downward bias of each response's cut last step).
    expect(m.spec_decode_overall_draft_acceptance_rate.avg).toBeGreaterThan((100 * EJ) / 4 - 3);
    expect(m.spec_decode_overall_draft_acceptance_rate.avg).toBeLessThan((100 * EJ) / 4 + 3);
    expect(m.spec_decode_token_weighted_acceptance_length.avg).toBeGreaterThan(1 + EJ - 0.12);
    expect(m.spec_decode_token_weighted_acceptance_length.avg).toBeLessThan(1 + EJ + 0.12);
    expect(m.spec_decode_acceptance_length.count).toBe(40);
  });

  it('reconciles exactly: each step emits j + 1 tokens; the pooled histogram sums to the steps', () => {
    const j = readJson(path.join(dir, 'profile_export.json'));
    const m = j.metrics;
    expect(m.total_accepted_draft_tokens.avg + m.total_spec_decode_steps.avg).toBe(m.total_osl.avg);
    expect(m.total_draft_tokens.avg).toBe(4 * m.total_spec_decode_steps.avg);
    const hist = j.pooled_spec_decode_acceptance_histogram as Record<string, number>;
    expect(Object.values(hist).reduce((a, b) => a + b, 0)).toBe(m.total_spec_decode_steps.avg);
    expect(Object.keys(hist).every((k) => Number(k) >= 0 && Number(k) <= 4)).toBe(true);
    expect(out.stdout).toContain('Spec Decode');
    expect(out.stdout).toMatch(/Accepted drafts per step \(\d+ steps\): 0: /);
  });

  it('the non-streaming body carries the same per-request stats', async () => {
    const d = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '64',
      '--no-streaming',
      '--concurrency',
      '2',
      '--request-count',
      '4',
      '--artifact-dir',
      d,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const m = readJson(path.join(d, 'profile_export.json')).metrics;
    expect(m.total_accepted_draft_tokens.avg + m.total_spec_decode_steps.avg).toBe(4 * 64);
  });
});

describe('--per-chunk-usage (4 tokens per chunk)', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '4', '--tokens-per-chunk', '4']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('divides the decode window by OSL − (tokens in the first chunk) instead of OSL − 1', async () => {
    const on = tmpDir();
    const off = tmpDir();
    const args = [
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '21',
      '--concurrency',
      '2',
      '--request-count',
      '6',
      '--use-server-token-count',
    ];
    const a = await runCli([...args, '--per-chunk-usage', '--artifact-dir', on]);
    const b = await runCli([...args, '--artifact-dir', off]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    for (const r of profiling(on)) {
      expect(r.metrics.output_sequence_length.value).toBe(21);
      expect(r.metrics.inter_token_latency.value).toBeCloseTo(r.metrics.decode_duration.value / (21 - 4), 6);
    }
    for (const r of profiling(off)) expect(r.metrics.inter_token_latency.value).toBeCloseTo(r.metrics.decode_duration.value / 20, 6);
    expect(a.stderr).not.toContain('--per-chunk-usage:');
  });

  it('refuses --per-chunk-usage without server token counts (exit 2, one line)', async () => {
    const r = await runCli(['profile', '--url', mock.url, ...common, '--per-chunk-usage']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--per-chunk-usage: requires --use-server-token-count');
  });
});

describe('OSL mismatch warning', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '0', '--eos-probability', '0.1']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('early stops are counted and the warning says how to make the server honour --osl', async () => {
    const d = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '60',
      '--concurrency',
      '4',
      '--request-count',
      '12',
      '--artifact-dir',
      d,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const m = readJson(path.join(d, 'profile_export.json')).metrics;
    const recs = profiling(d);
    const expected = recs.filter((x) => Math.abs(x.metrics.output_sequence_length.value - 60) > 3).length;
    expect(m.osl_mismatch_count.avg).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    expect(m.osl_mismatch_diff_pct.max).toBeLessThanOrEqual(0);
    expect(r.stderr).toMatch(new RegExp(`warning: ${expected} of 12 requests produced an output length`));
    expect(r.stderr).toContain('--extra-inputs ignore_eos:true');
  });

  it('with ignore_eos the server honours it: count 0, no warning', async () => {
    const d = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--osl',
      '60',
      '--concurrency',
      '4',
      '--request-count',
      '8',
      '--extra-inputs',
      'ignore_eos:true',
      '--artifact-dir',
      d,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(path.join(d, 'profile_export.json')).metrics.osl_mismatch_count.avg).toBe(0);
    expect(r.stderr).not.toContain('ignore_eos:true');
  });
});

describe('bad input', () => {
  it.each([
    [['--goodput', 'time_to_frist_token:200'], /--goodput: unknown metric tag 'time_to_frist_token'.*valid tags: .*time_to_first_token/],
    [['--goodput', 'time_to_first_token:abc'], /--goodput: bad number 'abc'.*valid tags: /],
    [['--goodput', 'time_to_first_token'], /--goodput: malformed pair 'time_to_first_token'.*valid tags: /],
    [
      ['--network-latency-mean', '5', '--network-latency-automatic'],
      /--network-latency-mean: cannot be combined with --network-latency-automatic/,
    ],
    [['--network-latency-mean', '-3'], /--network-latency-mean: must be at least 0/],
  ])('%j → one line, exit 2', async (args, msg) => {
    const r = await runCli(['profile', '--ui', 'none', '--request-count', '1', ...args]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(msg);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});

describe('usage fields of the wrong type from a server', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const http = await import('node:http');
    server = http.createServer((req, res) => {
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"object":"list","data":[{"id":"m","object":"model"}]}');
        return;
      }
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // A string, a negative count and a bare NaN (as Python's json.dumps writes it).
        res.end(
          '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"the of and"},"finish_reason":"stop"}],' +
            '"usage":{"prompt_tokens":"12","completion_tokens":-3,"total_tokens":NaN,"prompt_tokens_details":{"cached_tokens":4}}}',
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('no value for those fields, one warning per field, and the run goes on', async () => {
    const d = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      url,
      '--model',
      'm',
      '--ui',
      'none',
      '--no-streaming',
      '--concurrency',
      '2',
      '--request-count',
      '6',
      '--artifact-dir',
      d,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning:'));
    for (const field of ['usage.prompt_tokens', 'usage.completion_tokens', 'usage.total_tokens']) {
      expect(
        warnings.filter((w) => w.includes(`'${field}'`)),
        field,
      ).toHaveLength(1);
    }
    const recs = profiling(d);
    expect(recs).toHaveLength(6);
    for (const rec of recs) {
      expect(rec.status).toBe('ok');
      expect(rec.metrics.usage_prompt_tokens).toBeUndefined();
      expect(rec.metrics.usage_completion_tokens).toBeUndefined();
      expect(rec.metrics.usage_total_tokens).toBeUndefined();
      expect(rec.metrics.usage_prompt_cache_read_tokens.value).toBe(4);
      expect(rec.metrics.output_sequence_length.value).toBe(3);
    }
    expect(fs.existsSync(path.join(d, 'profile_export.json'))).toBe(true);
  });
});
