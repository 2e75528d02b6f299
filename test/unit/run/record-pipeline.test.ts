// The record pipeline against the main-thread path it replaces: the same lines, in the same order,
// the same metrics; a crashing worker's records become error records and the rest go on.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportLevel } from '../../../src/export/records.js';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { recordLine } from '../../../src/export/records.js';
import { displayUnitOf } from '../../../src/metrics/catalogue.js';
import { defaultRegistry } from '../../../src/metrics/catalogue.js';
import { RecordPipeline, recordWorkerCrashHook, type PipelineOptions } from '../../../src/run/pipeline/record-pipeline.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { ProcessedRecord } from '../../../src/model/processed-record.js';
import type { RawRecord, RecordStatus } from '../../../src/model/raw-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { rng } from '../../helpers/rng.js';

let tk: TextTokenizer;
let dir: string;
beforeAll(async () => {
  tk = await loadTokenizer();
  dir = mkdtempSync(join(tmpdir(), 'sb-pipeline-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MS = 1_000_000n;
const WORDS = [' the', ' of', ' 世界', ' 🙂', ' x = y[0];', '\n', ' naïve', ' <|endoftext|>', ' "q"', ' 12345'];
const delta = (d: Record<string, string>) => JSON.stringify({ choices: [{ delta: d }] });

/** Seeded records of every kind: streaming and not, reasoning, usage, errors, cancellations, message lists. */
function records(n: number, seed: number): RawRecord[] {
  const r = rng(seed);
  const int = (k: number) => Math.floor(r() * k);
  const text = (k: number) => Array.from({ length: k }, () => WORDS[int(WORDS.length)]).join('');
  const out: RawRecord[] = [];
  for (let i = 0; i < n; i++) {
    const start = 1000n * MS + BigInt(i) * 7n * MS;
    const kind = int(10);
    const streaming = kind !== 1;
    const events: string[] = [delta({ role: 'assistant', content: '' })];
    for (let k = int(40); k > 0; k--)
      events.push(kind === 2 && k % 3 === 0 ? delta({ reasoning_content: text(2) }) : delta({ content: text(1 + int(3)) }));
    if (r() < 0.7) events.push(JSON.stringify({ choices: [{ delta: {}, finish_reason: r() < 0.5 ? 'length' : 'stop' }] }));
    if (r() < 0.5)
      events.push(
        JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: events.length, total_tokens: 9 + events.length } }),
      );
    if (kind === 3) events.push('{not json');
    events.push('[DONE]');
    const status: RecordStatus = kind === 4 ? 'error' : kind === 5 ? 'cancelled' : 'ok';
    out.push({
      credit: {
        index: i,
        phase: i < 5 ? 'warmup' : 'profiling',
        x_request_id: `req-${i}`,
        credit_issued_ns: start - BigInt(int(5)) * MS,
        targeted_start_ns: kind === 6 ? start : null,
        turn:
          kind === 7
            ? {
                prompt: '',
                isl: null,
                max_tokens: null,
                messages: [
                  { role: 'system', content: text(5) },
                  { role: 'user', content: text(9) },
                ],
              }
            : { prompt: text(8), isl: kind === 8 ? null : 8, max_tokens: 16 + int(100) },
      },
      start_ns: start,
      end_ns: start + BigInt(50 + events.length) * MS + BigInt(int(999_999)),
      http_status: status === 'error' ? 500 : 200,
      status,
      error:
        status === 'error'
          ? { type: 'http_5xx', message: 'upstream "failed"', http_status: 500 }
          : status === 'cancelled'
            ? { type: 'cancelled', message: 'cancelled', http_status: null }
            : null,
      streaming,
      event_data: streaming ? events : [],
      event_ns: streaming ? events.map((_, k) => start + BigInt(10 + k) * MS + BigInt(int(1000))) : [],
      event_type: streaming ? events.map(() => '') : [],
      body: streaming
        ? null
        : JSON.stringify({
            choices: [{ message: { content: text(12) }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 8, completion_tokens: 12, total_tokens: 20 },
          }),
      bytes_sent: 100 + int(1000),
      bytes_received: 1000 + int(100_000),
    });
  }
  return out;
}

function processor(): RecordProcessor {
  return new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
}

function pipelineOptions(file: string | null, level: ExportLevel, over: Partial<PipelineOptions> = {}): PipelineOptions {
  return {
    workers: 2,
    tokenizerPath: tk.path,
    count: (t) => tk.count(t),
    convention: 'aiperf',
    registry: defaultRegistry(),
    file: file === null ? null : { path: file, level },
    ...over,
  };
}

/** Submits every record as run-once's dispatch does, a few per event-loop turn, then drains. */
async function throughPipeline(raws: RawRecord[], opts: PipelineOptions): Promise<ProcessedRecord[]> {
  const p = processor();
  const pipe = new RecordPipeline(opts);
  const out: ProcessedRecord[] = [];
  for (let i = 0; i < raws.length; i++) {
    const prepared = p.prepare(raws[i]);
    pipe.submit(prepared);
    out.push(prepared.record);
    if (i % 37 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await pipe.close();
  return out;
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').slice(0, -1);
}

describe('RecordPipeline', () => {
  for (const level of ['records', 'raw'] as const) {
    it(`writes the lines recordLine writes for the same records, byte for byte, in order (level ${level})`, async () => {
      const raws = records(1500, level === 'raw' ? 2 : 1);
      const ref = processor();
      const want = raws.map((raw) => ref.process(structuredClone(raw)));
      const wantLines = want.map((rec) => recordLine(rec, level, displayUnitOf));
      const file = join(dir, `records-${level}.jsonl`);
      const got = await throughPipeline(raws, pipelineOptions(file, level));
      expect(lines(file)).toEqual(wantLines);
      expect(wantLines.some((l) => l.includes(',"finish_reason":"length",'))).toBe(true);
      // The records kept for the summary carry the same counts and metrics, and are slimmed.
      got.forEach((rec, i) => {
        const w = want[i];
        expect(new Map(rec.metrics)).toEqual(w.metrics);
        expect([rec.metric_input.input_tokens, rec.metric_input.output_tokens, rec.metric_input.reasoning_tokens]).toEqual([
          w.metric_input.input_tokens,
          w.metric_input.output_tokens,
          w.metric_input.reasoning_tokens,
        ]);
        expect(rec.raw.event_data).toEqual([]);
        expect(rec.finish_reason).toBe(w.finish_reason);
      });
      // Every kind of record was there.
      expect(new Set(got.map((r) => r.status))).toEqual(new Set(['ok', 'error', 'cancelled']));
      expect(got.some((r) => r.metric_input.reasoning_tokens !== null)).toBe(true);
    });
  }

  it('computes the metrics without a file (--export-level summary)', async () => {
    const raws = records(300, 3);
    const ref = processor();
    const want = raws.map((raw) => ref.process(structuredClone(raw)).metrics);
    const got = await throughPipeline(raws, pipelineOptions(null, 'records'));
    expect(got.map((r) => new Map(r.metrics))).toEqual(want);
  });

  it('hands every record over once, final and in submit order, those of a crashed worker too (onSettled)', async () => {
    const raws = records(1200, 5);
    const settled: { rec: ProcessedRecord; status: RecordStatus; metrics: number }[] = [];
    const got = await throughPipeline(
      raws,
      pipelineOptions(null, 'records', {
        workers: 1,
        crashAtBatch: 2,
        onSettled: (recs) => {
          for (const rec of recs) settled.push({ rec, status: rec.status, metrics: rec.metrics.size });
        },
      }),
    );
    expect(settled.map((s) => s.rec)).toEqual(got);
    expect(new Set(settled.map((s) => s.rec)).size).toBe(raws.length);
    // Final when handed over: the status and metrics it ends with.
    settled.forEach((s) => {
      expect(s.status).toBe(s.rec.status);
      expect(s.metrics).toBe(s.rec.metrics.size);
    });
    expect(settled.some((s) => s.rec.error?.type === '_OTHER')).toBe(true);
    expect(settled.filter((s) => s.status === 'ok').every((s) => s.metrics > 0)).toBe(true);
  });

  it('turns the records of a crashed worker into _OTHER error records; the rest go on', async () => {
    const raws = records(2000, 4);
    const ref = processor();
    const before = raws.map((raw) => ref.process(structuredClone(raw)).status);
    const file = join(dir, 'crash.jsonl');
    const late: RecordStatus[] = [];
    const got = await throughPipeline(
      raws,
      pipelineOptions(file, 'records', { workers: 1, crashAtBatch: 2, onLateError: (_rec, was) => late.push(was) }),
    );
    const out = lines(file).map(
      (l) => JSON.parse(l) as { x_request_id: string; status: string; error: { type: string; message: string } | null },
    );
    // Every record is still there, once, in order.
    expect(out.map((l) => l.x_request_id)).toEqual(raws.map((r) => r.credit.x_request_id));
    const lost = out.filter((l) => l.error?.type === '_OTHER');
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.length).toBeLessThan(raws.length);
    for (const l of lost) {
      expect(l.status).toBe('error');
      expect(l.error?.message).toMatch(/record worker died: test hook: record worker crashes on batch 2/);
    }
    // The records kept agree with the file, and each ok record that became an error was reported.
    expect(got.filter((r) => r.error?.type === '_OTHER').length).toBe(lost.length);
    const changed = before.filter((st, i) => st !== 'error' && out[i]?.error?.type === '_OTHER');
    expect(late.sort()).toEqual(changed.sort());
    expect(late).toContain('ok');
    // Records after the crash were processed by the replacement worker.
    const lastLost = got.map((r) => r.error?.type === '_OTHER').lastIndexOf(true);
    const after = got.slice(lastLost + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((r) => r.status === 'ok').every((r) => r.metric_input.output_tokens !== null)).toBe(true);
  });

  it('counts on the main thread, the same way, when a worker cannot load the tokenizer', async () => {
    const raws = records(400, 5);
    const ref = processor();
    const wantLines = raws.map((raw) => recordLine(ref.process(structuredClone(raw)), 'records', displayUnitOf));
    const file = join(dir, 'fallback.jsonl');
    await throughPipeline(raws, pipelineOptions(file, 'records', { tokenizerPath: join(dir, 'missing-tokenizer.json') }));
    expect(lines(file)).toEqual(wantLines);
  });

  it('a replacement worker that cannot load the tokenizer: the run goes on, every record not lost exact', async () => {
    // The tokenizer file goes away once the workers have started; each worker then crashes on its
    // first batch, and the replacements cannot load the tokenizer, so from then on this thread counts.
    // The first half is written before the second is submitted: whatever the crashes took is in it.
    const copy = join(dir, 'vanishing-tokenizer.json');
    copyFileSync(tk.path, copy);
    const raws = records(1600, 8);
    const half = raws.length / 2;
    const ref = processor();
    const want = raws.map((raw) => recordLine(ref.process(structuredClone(raw)), 'records', displayUnitOf));
    const file = join(dir, 'vanishing.jsonl');
    const pipe = new RecordPipeline(pipelineOptions(file, 'records', { tokenizerPath: copy, crashAtBatch: 1 }));
    await pipe.ready();
    rmSync(copy);
    const p = processor();
    const submit = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        pipe.submit(p.prepare(raws[i]));
        if (i % 97 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    await submit(0, half);
    for (let t = Date.now(); pipe.written < half && Date.now() - t < 30_000;) await new Promise((r) => setTimeout(r, 10));
    expect(pipe.written).toBe(half);
    await submit(half, raws.length);
    await pipe.close();
    const got = lines(file);
    expect(got).toHaveLength(want.length);
    let lost = 0;
    got.forEach((line, i) => {
      const rec = JSON.parse(line) as { error: { type: string; message: string } | null };
      if (rec.error?.type === '_OTHER' && /record worker died/.test(rec.error.message)) {
        lost++;
        expect(i).toBeLessThan(half);
      } else expect(line).toBe(want[i]);
    });
    expect(lost).toBeGreaterThan(0);
  });

  it('counts on this thread past the backlog bound, and writes the same lines in the same order', async () => {
    const raws = records(3000, 9);
    const ref = processor();
    const want = raws.map((raw) => recordLine(ref.process(structuredClone(raw)), 'records', displayUnitOf));
    const file = join(dir, 'bounded.jsonl');
    const pipe = new RecordPipeline(pipelineOptions(file, 'records', { workers: 1, maxBacklog: 600 }));
    await pipe.ready();
    const p = processor();
    // No turn of the event loop between submits: nothing settles, so the backlog only grows.
    for (const raw of raws) pipe.submit(p.prepare(raw));
    await pipe.close();
    expect(lines(file)).toEqual(want);
    // Batches of 256 go to the worker until 600 wait; every later one is done here.
    expect(pipe.countedHere).toBe(3000 - 768);
    expect(pipe.maxWaiting).toBe(3000);
  });

  it('reads the crash hook from SERVEBENCH_RECORD_WORKER_CRASH', () => {
    expect(recordWorkerCrashHook({ SERVEBENCH_RECORD_WORKER_CRASH: '3' })).toBe(3);
    expect(recordWorkerCrashHook({ SERVEBENCH_RECORD_WORKER_CRASH: 'x' })).toBeUndefined();
    expect(recordWorkerCrashHook({})).toBeUndefined();
  });
});
