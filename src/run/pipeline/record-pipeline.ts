// The record pipeline: the dispatch callback hands each prepared record over and returns at once;
// records are batched to worker threads (run/pipeline/record-worker.ts) that count tokens, compute the
// per-record metrics and serialize records.jsonl lines. Lines are written in completion order
// (the order of submit()), byte for byte what RecordsWriter would write, each batch's lines with
// one synchronous write (export/artifact-file.ts): a finished record is on disk even if the process
// quits the next moment. A settled record reads its metrics from its batch's typed columns, and is
// handed to onSettled (the run's summary) and let go.
//
// A worker that dies turns the records it held into error records (_OTHER, saying why) and is
// replaced; after MAX_RESTARTS deaths the pipeline counts on the main thread instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { ExportLevel } from '../../export/records.js';
import { AppendFile } from '../../export/artifact-file.js';
import { recordLine } from '../../export/records.js';
import type { ArtifactWriteError } from '../../errors.js';
import { displayUnitOf } from '../../metrics/catalogue.js';
import type { MetricRegistry } from '../../metrics/core/registry.js';
import type { ConventionChoice } from '../../metrics/core/options.js';
import { RecordMetrics, internTags } from './metric-columns.js';
import { processBatch, type BatchEnv, type BatchRequest, type BatchResult, type WorkItem } from './record-batch.js';
import { lean, slim, workItem } from './work-item.js';
import { completeRecord, countTexts, type PreparedRecord } from '../../records/process.js';
import type { ProcessedRecord } from '../../model/processed-record.js';
import type { RecordStatus } from '../../model/raw-record.js';
import type { WorkerInit } from './record-worker.js';
import { knownSecrets, scrub } from '../../secrets.js';
import type { TokenizeSpec } from '../../tokenizer/types.js';

export interface PipelineOptions {
  /** Worker threads (--record-workers). */
  workers: number;
  tokenizerPath: string;
  /** Main-thread counter, for the fallback (the run's TextTokenizer.count). */
  count: (text: string) => number;
  convention: ConventionChoice;
  registry: MetricRegistry;
  compareWith?: ReadonlyMap<string, MetricRegistry>;
  /** records.jsonl path and level; null: no file (--export-level summary). */
  file: { path: string; level: ExportLevel } | null;
  /** records.jsonl could not be written (a full disk): called once; the lines that follow are dropped. */
  onWriteError?(err: ArtifactWriteError): void;
  /**
   * Each batch's records once final (counts, metrics, status), in submit order, as their lines are
   * written: the run's summary takes them in here, and the pipeline keeps none of them after.
   */
  onSettled?(recs: readonly ProcessedRecord[]): void;
  /** A record settled as ok by dispatch that became an error here (its worker died). */
  onLateError?(rec: ProcessedRecord, was: RecordStatus): void;
  /**
   * Finished records that may wait for the workers (default RECORD_BACKLOG_MAX): past it, batches
   * are counted on this thread until the backlog is back under it, so memory stays bounded when the
   * workers cannot keep up; the time this takes slows the sends, as a saturated client must.
   */
  maxBacklog?: number;
  /** Test hook: each first-generation worker throws on this batch (1-based). */
  crashAtBatch?: number;
  forceCounter?: 'huggingface';
  /** --tokenizer server: workers count through the server's tokenize endpoint. */
  server?: TokenizeSpec;
}

/**
 * Records at the workers at most, by default: about 12 KB each as they wait (a slimmed record, its
 * work item and its clone), so some 400 MB. Runs that the workers keep up with never come near it
 * (c=1,024 on one saturated core: at most about 10,000); it is the bound when they cannot keep up.
 */
export const RECORD_BACKLOG_MAX = 32_768;

/**
 * How far below the JS thread a record worker runs (its nice value, Linux): on a client without a
 * core to spare, counting must not take the CPU the sends need. Measured on one shared core
 * (c=1,024, TTFT/ITL 5 ms, 4,096 requests, 6 interleaved pairs): 55% of the offered events/s at
 * equal priority, 76% at +10 (3 runs: +5 70%, +19 74%).
 */
export const RECORD_WORKER_NICE = 10;
/** Records per batch at most; a batch also goes out at the end of each event-loop turn. */
const MAX_BATCH = 256;
const MAX_RESTARTS = 3;
/** The largest written lines buffer handed back to its worker (a raw batch's can be huge). */
const MAX_SPARE_BYTES = 4 * 1024 * 1024;

interface Batch {
  req: BatchRequest;
  recs: ProcessedRecord[];
  /** The batch's records.jsonl text (UTF-8 from a worker), once settled; null until then. */
  text: string | Uint8Array | null;
  worker: Slot | null;
}

interface Slot {
  worker: Worker;
  /** Where written lines buffers go back to the worker, at once: it takes them before each batch. */
  spares: MessagePort;
  inFlight: Set<Batch>;
  dead: boolean;
}

/** SERVEBENCH_RECORD_WORKER_CRASH=N: each record worker started with the run throws on its Nth batch (tests). */
export function recordWorkerCrashHook(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const n = Number(env.SERVEBENCH_RECORD_WORKER_CRASH);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** The compiled worker: next to this file in dist/, or dist/'s copy when this runs from src/ (tests). */
function workerPath(): string {
  const here = fileURLToPath(new URL('./record-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  return fileURLToPath(new URL('../../../dist/run/pipeline/record-worker.js', import.meta.url));
}

export class RecordPipeline {
  private readonly slots: Slot[] = [];
  /** Batches in submit order, written out from the head as they complete. */
  private readonly queue: Batch[] = [];
  private pending: Batch | null = null;
  private nextId = 1;
  private restarts = 0;
  private readonly starting = new Set<Slot>();
  private readonly onStarted: (() => void)[] = [];
  private flushScheduled = false;
  private drained: (() => void) | null = null;
  /** Opened when the workers are ready (or at the first write): its existence says the run is on. */
  private stream: AppendFile | null = null;
  private readonly mainEnv: BatchEnv;
  /** Records written to records.jsonl so far. */
  written = 0;
  /** Records handed over and not yet settled, and the most there were at once. */
  private waiting = 0;
  maxWaiting = 0;
  /** Records counted on this thread because the workers were RECORD_BACKLOG_MAX behind. */
  countedHere = 0;
  /** Records in batches posted to the workers and not back yet: what the bound is on. */
  private posted = 0;
  private readonly maxBacklog: number;

  constructor(private readonly opts: PipelineOptions) {
    this.maxBacklog = opts.maxBacklog ?? RECORD_BACKLOG_MAX;
    this.mainEnv = { count: opts.count, registry: opts.registry, compareWith: opts.compareWith, level: opts.file?.level ?? null };
    for (let i = 0; i < opts.workers; i++) this.slots.push(this.spawn(opts.crashAtBatch));
  }

  /** Hands a prepared record over; its counts, metrics and line follow. The record is slimmed now. */
  submit(p: PreparedRecord): void {
    const rec = p.record;
    const item = workItem(p, this.opts.file?.level ?? null);
    slim(rec);
    if (++this.waiting > this.maxWaiting) this.maxWaiting = this.waiting;
    let b = this.pending;
    if (b === null) {
      b = { req: { id: this.nextId++, items: [] }, recs: [], text: null, worker: null };
      this.pending = b;
      this.queue.push(b);
    }
    b.req.items.push(item);
    b.recs.push(rec);
    if (b.req.items.length >= MAX_BATCH) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Waits for every record handed over, writes the last lines, stops the workers, closes the file. */
  async close(): Promise<void> {
    this.flush();
    if (this.queue.length > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    const slots = this.slots.splice(0);
    for (const s of slots) s.dead = true;
    await Promise.all(slots.map((s) => s.worker.terminate()));
    for (const s of slots) s.spares.close();
    this.file()?.close();
  }

  /** Why records.jsonl is incomplete (the first failed write), or null. */
  get writeError(): ArtifactWriteError | null {
    return this.stream?.error ?? null;
  }

  /**
   * Resolves once every worker has loaded its tokenizer (or failed to): the run awaits it before
   * the first send, so a worker's start-up never competes with sends for the cores.
   */
  async ready(): Promise<void> {
    if (this.starting.size > 0) await new Promise<void>((resolve) => this.onStarted.push(resolve));
    this.file();
  }

  private file(): AppendFile | null {
    if (this.stream === null && this.opts.file)
      this.stream = new AppendFile(this.opts.file.path, (err) => this.opts.onWriteError?.(err)).open();
    return this.stream;
  }

  private started(slot: Slot): void {
    if (!this.starting.delete(slot)) return;
    // Started and idle, a worker must not keep a finished run's process alive (ready() awaits it ref'd).
    if (slot.inFlight.size === 0) slot.worker.unref();
    if (this.starting.size > 0) return;
    for (const f of this.onStarted.splice(0)) f();
  }

  private spawn(crashAtBatch?: number): Slot {
    const spares = new MessageChannel();
    spares.port1.unref();
    const init: WorkerInit = {
      tokenizerPath: this.opts.tokenizerPath,
      convention: this.opts.convention,
      level: this.opts.file?.level ?? null,
      // The worker's lines are scrubbed of the same secrets as this thread's (src/secrets.ts).
      secrets: knownSecrets(),
      spares: spares.port2,
      nice: RECORD_WORKER_NICE,
      ...(crashAtBatch !== undefined ? { crashAtBatch } : {}),
      ...(this.opts.forceCounter ? { forceCounter: this.opts.forceCounter } : {}),
      ...(this.opts.server ? { server: this.opts.server } : {}),
    };
    // A small young generation: left to grow, a worker's reaches 32 MiB under 256-record batches, about
    // 24 MiB of RSS per 1,000 streams; at 6 MiB it costs no measurable CPU (records die young).
    const worker = new Worker(workerPath(), {
      workerData: init,
      transferList: [spares.port2],
      resourceLimits: { maxYoungGenerationSizeMb: 6 },
    });
    const slot: Slot = { worker, spares: spares.port1, inFlight: new Set(), dead: false };
    this.starting.add(slot);
    worker.on('message', (msg: BatchResult | { initFailed: string } | { ready: true }) => {
      if ('ready' in msg) this.started(slot);
      else if ('initFailed' in msg) this.initFailed(slot);
      else this.onResult(slot, msg);
    });
    let why = 'exited';
    worker.on('error', (err) => (why = err.message));
    worker.on('exit', (code) => {
      this.started(slot);
      if (!slot.dead) this.onDeath(slot, `record worker ${code === 0 ? 'exited' : 'died'}: ${why}`);
    });
    return slot;
  }

  private flush(): void {
    this.flushScheduled = false;
    const b = this.pending;
    if (b === null) return;
    this.pending = null;
    const live = this.slots.filter((s) => !s.dead);
    // Over the bound, the batch is done here, now: its records are then final and small (their line
    // and metrics), and no more work piles up behind the workers until they have caught up.
    const behind = this.posted >= this.maxBacklog;
    if (behind) this.countedHere += b.recs.length;
    if (live.length === 0 || behind) {
      this.settle(b, processBatch(b.req, this.mainEnv));
      return;
    }
    let slot = live[0];
    for (const s of live) if (s.inFlight.size < slot.inFlight.size) slot = s;
    b.worker = slot;
    slot.inFlight.add(b);
    // Clones the items now; the batch keeps them for a fallback should the worker die.
    slot.worker.postMessage(b.req);
    this.posted += b.recs.length;
    // A started worker can only die now, and a dead worker's records become error records, which need
    // neither the output texts nor the stamps: the batch lets them go, as they wait (often long, when
    // the workers are behind: a run on one core keeps nearly every record until its end).
    if (!this.starting.has(slot)) for (const item of b.req.items) lean(item);
    slot.worker.ref();
  }

  private onResult(slot: Slot, res: BatchResult): void {
    const b = [...slot.inFlight].find((x) => x.req.id === res.id);
    if (!b) return;
    slot.inFlight.delete(b);
    if (slot.inFlight.size === 0) slot.worker.unref();
    this.settle(b, res);
  }

  /** Counts and metrics into the records; a failed item becomes an error record. */
  private settle(b: Batch, res: BatchResult): void {
    if (b.worker !== null) this.posted -= b.recs.length;
    const failed = new Map(res.failures.map((f) => [f.index, f.message] as const));
    const counts = res.counts;
    // Each record reads its metrics from the batch's columns (no Map per record: see RecordMetrics).
    const columns = internTags(res.metrics);
    for (let i = 0; i < b.recs.length; i++) {
      const rec = b.recs[i];
      const why = failed.get(i);
      if (why !== undefined) {
        this.fail(rec, b.req.items[i], `record processing failed: ${why}`);
        continue;
      }
      const m = rec.metric_input;
      // NaN: not counted here (the record keeps the server's count, or none).
      if (!Number.isNaN(counts[3 * i])) m.input_tokens = counts[3 * i];
      if (!Number.isNaN(counts[3 * i + 1])) m.output_tokens = counts[3 * i + 1];
      if (!Number.isNaN(counts[3 * i + 2])) m.reasoning_tokens = counts[3 * i + 2];
      rec.metrics = new RecordMetrics(columns, i);
      const conventions = res.conventions?.[i];
      if (conventions) rec.convention_metrics = conventions;
    }
    // A failed item's line is rebuilt as an error line; redo the batch's text so order holds.
    b.text = failed.size > 0 ? this.linesOf(b) : res.lines;
    this.writeReady();
  }

  /** The records of a batch as lines, on this thread (after a failure, the records are final). */
  private linesOf(b: Batch): string {
    const level = this.opts.file?.level;
    if (level === undefined) return '';
    let text = '';
    b.req.items.forEach((item, i) => {
      const rec = b.recs[i];
      if (item.line === null) return;
      text += recordLine({ ...item.line, metrics: rec.metrics }, level, displayUnitOf) + '\n';
    });
    return text;
  }

  /** Turns a record whose processing was lost into an error record, counted and serialized here. */
  private fail(rec: ProcessedRecord, item: WorkItem, message: string): void {
    const was = rec.status;
    rec.status = 'error';
    rec.error = { type: '_OTHER', message: scrub(message), http_status: rec.raw.http_status };
    const input = { ...item.input, valid: false, output_tokens: null, reasoning_tokens: null };
    rec.metric_input = input;
    item.input = input;
    item.texts = { input: item.texts.input, output: null, reasoning: null };
    if (item.line) item.line = { ...item.line, status: rec.status, error: rec.error };
    completeRecord(rec, countTexts(item.texts, this.opts.count), this.opts.registry, this.opts.compareWith);
    rec.metric_input.token_ns = [];
    if (was !== 'error') this.opts.onLateError?.(rec, was);
  }

  /**
   * A worker that cannot load the tokenizer is dropped and its batches are done on this thread
   * (whole: it never started, so flush kept all of them); a worker that did start goes on with its
   * own, which this thread no longer could (flush let their texts go). None is started in its place:
   * a tokenizer that does not load will not load in another; with no worker left, this thread counts.
   */
  private initFailed(slot: Slot): void {
    slot.dead = true;
    this.started(slot);
    this.restarts = MAX_RESTARTS;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const batches = [...slot.inFlight].sort((x, y) => x.req.id - y.req.id);
    slot.inFlight.clear();
    void slot.worker.terminate();
    for (const b of batches) this.settle(b, processBatch(b.req, this.mainEnv));
  }

  private onDeath(slot: Slot, why: string): void {
    slot.dead = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) {
      this.slots.splice(i, 1);
      if (this.restarts < MAX_RESTARTS) {
        this.restarts++;
        this.slots.push(this.spawn());
      }
    }
    for (const b of [...slot.inFlight].sort((x, y) => x.req.id - y.req.id)) {
      this.posted -= b.recs.length;
      b.req.items.forEach((item, k) => this.fail(b.recs[k], item, `${why} (its records are lost)`));
      b.text = this.linesOf(b);
    }
    slot.inFlight.clear();
    this.writeReady();
  }

  private writeReady(): void {
    while (this.queue.length > 0 && this.queue[0].text !== null) {
      const b = this.queue.shift() as Batch;
      const text = b.text as string | Uint8Array;
      this.file()?.write(text);
      // The write was synchronous: the buffer (a batch's own, from processBatch) goes back to be reused.
      // Posted now, not with a later batch: when a worker is behind, batches are posted long before
      // buffers come free, and each would have been made afresh.
      const slot = b.worker;
      if (typeof text !== 'string' && slot && !slot.dead && text.buffer.byteLength > 0 && text.buffer.byteLength <= MAX_SPARE_BYTES) {
        const buf = text.buffer as ArrayBuffer;
        slot.spares.postMessage(buf, [buf]);
      }
      this.written += b.recs.length;
      this.waiting -= b.recs.length;
      // What the fallback needed is no longer kept.
      b.req.items = [];
      this.opts.onSettled?.(b.recs);
    }
    if (this.queue.length === 0 && this.pending === null && this.drained) {
      const done = this.drained;
      this.drained = null;
      done();
    }
  }
}
