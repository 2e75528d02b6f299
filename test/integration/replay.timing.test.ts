// Fixed-schedule replay and multi-turn sessions against the mock, checked from the mock's own
// request log (--record-requests: arrival stamp, headers and body of every request).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../src/config/validate.js';
import type { Conversation, ConversationSource } from '../../src/dataset/types.js';
import { RunControl } from '../../src/load/control.js';
import { runOnce } from '../../src/run/single/run-once.js';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { loadTokenizer } from '../../src/tokenizer/load.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { remeasured } from '../helpers/remeasure.js';

// Stated tolerance: a replayed request reaches the server within 15 ms of its trace offset
// (measured from the first request's arrival), on a shared 2-core host.
const TOLERANCE_MS = 15;

interface Logged {
  ts_ns: number;
  path: string;
  headers: Record<string, string>;
  body: { messages?: { role: string; content: string }[]; prompt?: string; max_tokens?: number };
}

const generation = (file: string): Logged[] => readJsonl(file).filter((x: Logged) => x.path.endsWith('/completions'));

describe('fixed-schedule replay of a mooncake trace (the CLI, the dataset loader, the mock)', () => {
  let mock: SpawnedMock;
  let log: string;
  let trace: string;
  const offsets = [0, 80, 160, 240, 400, 410, 420, 700];
  // The replay and what the mock logged of it (the log emptied first); a failed test replays again
  // before its retry.
  const measured = remeasured(async () => {
    fs.writeFileSync(log, '');
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--input-file',
      trace,
      '--custom-dataset-type',
      'mooncake_trace',
      '--fixed-schedule-auto-offset',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    return { dir, r, arrivals: generation(log) };
  });

  beforeAll(async () => {
    const work = tmpDir();
    log = path.join(work, 'requests.jsonl');
    trace = path.join(work, 'trace.jsonl');
    // Out of order on purpose (line 3): replayed in time order anyway.
    const lines = offsets.map((t, i) => ({ timestamp: t + 5000, input_length: 64, output_length: 4, hash_ids: [i] }));
    [lines[2], lines[3]] = [lines[3], lines[2]];
    fs.writeFileSync(trace, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1', '--record-requests', log]);
    await measured.prime();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('is on by default for a timestamped trace and sends every entry once', async () => {
    const { dir, r } = await measured.get();
    expect(r.code, r.stderr).toBe(0);
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.load_mode).toBe('fixed_schedule');
    expect(j.counts).toEqual({ issued: 8, succeeded: 8, errored: 0, cancelled: 0 });
  });

  it(`sends at the trace's offsets, within ${TOLERANCE_MS} ms`, async () => {
    const { arrivals } = await measured.get();
    const got = arrivals.map((x) => x.ts_ns).sort((a, b) => a - b);
    expect(got).toHaveLength(8);
    // The schedule's origin is the median arrival-minus-offset, not the first arrival: a first request
    // that is late (it also opens the connection) must not make every other request look early.
    const shifts = got.map((ts, i) => ts / 1e6 - offsets[i]).sort((a, b) => a - b);
    const origin = (shifts[3] + shifts[4]) / 2;
    got.forEach((ts, i) => {
      const at = ts / 1e6 - origin;
      expect(Math.abs(at - offsets[i]), `request ${i} at ${at.toFixed(1)} ms, trace says ${offsets[i]}`).toBeLessThan(TOLERANCE_MS);
    });
  });

  it('reports the replay schedule lag (exported, not on the console) and no degradation', async () => {
    const { dir, r } = await measured.get();
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.metrics.replay_sched_lag_p50.unit).toBe('ms');
    expect(j.metrics.replay_sched_lag_p99.avg).toBeGreaterThanOrEqual(j.metrics.replay_sched_lag_p50.avg);
    expect(j.metrics.replay_sched_lag_p99.avg).toBeLessThan(TOLERANCE_MS);
    expect(j.metrics.replay_sched_degraded.avg).toBe(0);
    expect(r.stdout).not.toContain('Replay Schedule Lag');
    const recs = readJsonl(path.join(dir, 'records.jsonl')).sort((a, b) => a.targeted_start_ns - b.targeted_start_ns);
    recs.forEach((x, i) => expect(Math.round((x.targeted_start_ns - recs[0].targeted_start_ns) / 1e6)).toBe(offsets[i]));
  });
});

/** An in-test source: the scheduler's contract, without any dataset file. */
function source(convs: Conversation[], hasTimestamps: boolean): ConversationSource {
  let i = 0;
  return { kind: 'test', size: convs.length, hasTimestamps, next: () => convs[i++ % convs.length] };
}
const turn = (prompt: string, extra: { timestamp_ms?: number; delay_ms?: number } = {}) => ({
  prompt,
  isl: null,
  max_tokens: 6,
  timestamp_ms: extra.timestamp_ms ?? null,
  delay_ms: extra.delay_ms ?? null,
});

describe('sessions and replay through runOnce with an in-test source', () => {
  let mock: SpawnedMock;
  let log: string;
  beforeAll(async () => {
    log = path.join(tmpDir(), 'requests.jsonl');
    mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '2', '--record-requests', log]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('multi-turn: each turn carries the history with the actual replies, respects think time and never overlaps', async () => {
    const THINK = 120;
    const convs: Conversation[] = ['alpha', 'beta'].map((id) => ({
      id,
      turns: [turn(`${id} one`), turn(`${id} two`, { delay_ms: THINK }), turn(`${id} three`, { delay_ms: THINK })],
    }));
    const dir = tmpDir();
    const cfg = buildRunConfig(
      { url: mock.url, model: 'mock-model', concurrency: '2', 'request-count': 6, 'export-level': 'raw', 'artifact-dir': dir, ui: 'none' },
      {},
    );
    fs.writeFileSync(log, '');
    const out = await runOnce(cfg, {
      baseUrl: mock.url,
      tokenizer: await loadTokenizer(),
      control: new RunControl(),
      dir,
      source: source(convs, false),
      log: () => {},
    });
    expect(out.mode).toBe('concurrency');
    const recs = new Map(readJsonl(path.join(dir, 'records.jsonl')).map((x) => [x.x_request_id, x]));
    const failed = [...recs.values()].filter((x) => x.status !== 'ok').map((x) => x.error);
    expect(failed).toEqual([]);
    expect(out.result.profiling!.sessions).toEqual({ started: 2, completed: 2, abandoned: 0 });

    const reply = (id: string) =>
      (recs.get(id)!.payloads as string[])
        .filter((p) => p !== '[DONE]')
        .map((p) => JSON.parse(p).choices?.[0]?.delta?.content ?? '')
        .join('');
    const sent = generation(log);
    expect(sent).toHaveLength(6);
    for (const id of ['alpha', 'beta']) {
      const turns = sent.filter((x) => x.body.messages![0].content === `${id} one`).sort((a, b) => a.ts_ns - b.ts_ns);
      expect(turns.map((x) => x.body.messages!.length)).toEqual([1, 3, 5]);
      for (let k = 1; k < 3; k++) {
        const prev = turns[k - 1];
        const msgs = turns[k].body.messages!;
        expect(msgs.slice(0, -1)).toEqual(prev.body.messages!.concat({ role: 'assistant', content: reply(prev.headers['x-request-id']) }));
        expect(msgs[msgs.length - 1]).toEqual({ role: 'user', content: `${id} ${k === 1 ? 'two' : 'three'}` });
        expect(reply(prev.headers['x-request-id']).length).toBeGreaterThan(0);
        // The previous turn completed (client side) before the think time started.
        const prevEnd = recs.get(prev.headers['x-request-id'])!.end_ns;
        expect((turns[k].ts_ns - prevEnd) / 1e6).toBeGreaterThanOrEqual(THINK - 1);
      }
    }
  });

  it('replay: first turns at their timestamps; the trace lag is exported', async () => {
    const convs: Conversation[] = [0, 60, 120, 125, 300].map((t, i) => ({ id: `t${i}`, turns: [turn(`trace ${i}`, { timestamp_ms: t })] }));
    const dir = tmpDir();
    const cfg = buildRunConfig({ url: mock.url, model: 'mock-model', 'artifact-dir': dir, ui: 'none' }, {});
    fs.writeFileSync(log, '');
    const out = await runOnce(cfg, {
      baseUrl: mock.url,
      tokenizer: await loadTokenizer(),
      control: new RunControl(),
      dir,
      source: source(convs, true),
      log: () => {},
    });
    expect(out.mode).toBe('fixed_schedule');
    const got = generation(log).sort((a, b) => a.ts_ns - b.ts_ns);
    expect(got.map((x) => x.body.messages![0].content)).toEqual(convs.map((c) => c.turns[0].prompt));
    got.forEach((x, i) => expect(Math.abs((x.ts_ns - got[0].ts_ns) / 1e6 - [0, 60, 120, 125, 300][i])).toBeLessThan(TOLERANCE_MS));
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.metrics.replay_sched_lag_p90.avg).toBeLessThan(TOLERANCE_MS);
  });
});
