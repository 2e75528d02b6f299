// A record worker: counts tokens, computes per-record metrics and serializes records.jsonl lines
// for batches the main thread posts (run/pipeline/record-pipeline.ts), so none of it delays sends or stamps.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { CONVENTION_NAMES, comparisonRegistry, registryFor, type ConventionChoice } from '../../metrics/conventions.js';
import { createTokenCounter } from '../../tokenizer/count.js';
import { ServerBatchCounter } from '../../tokenizer/server-count.js';
import type { TokenizeSpec } from '../../tokenizer/types.js';
import { processBatch, transferables, type BatchEnv, type BatchRequest } from './record-batch.js';
import type { ExportLevel } from '../../export/records.js';
import { addSecrets } from '../../secrets.js';
import { lowerOwnPriority } from './thread-priority.js';

export interface WorkerInit {
  tokenizerPath: string;
  convention: ConventionChoice;
  level: ExportLevel | null;
  /** The run's secrets, scrubbed from every line this thread serializes (src/secrets.ts). */
  secrets: string[];
  /** Written lines buffers coming back from the main thread, to write later batches' lines into. */
  spares?: MessagePort;
  /** Test hook: throw on this batch (1-based), as a crashing worker would. */
  crashAtBatch?: number;
  /** Count with @huggingface/tokenizers even for a cl100k file. */
  forceCounter?: 'huggingface';
  /** --tokenizer server: count through the server's tokenize endpoint instead of tokenizerPath. */
  server?: TokenizeSpec;
  /** How far to lower this thread's priority (its nice value, Linux; run/pipeline/record-pipeline.ts RECORD_WORKER_NICE). */
  nice?: number;
}

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error('run/pipeline/record-worker.ts runs only as a worker thread');
addSecrets(init.secrets);
// Below the JS thread: on a client without a core to spare, counting then waits for the sends instead
// of delaying them; records wait in the pipeline's bounded backlog meanwhile.
if (init.nice) lowerOwnPriority(init.nice);

// The same registries CatalogueRun.processorOptions gives the main thread's RecordProcessor.
const compareWith =
  init.convention === 'all'
    ? new Map(CONVENTION_NAMES.filter((n) => n !== 'aiperf').map((n) => [n, comparisonRegistry(n)] as const))
    : undefined;
const serverCounter = init.server ? new ServerBatchCounter(init.server) : null;
const localCount: Promise<(text: string) => number> = serverCounter
  ? Promise.resolve(() => {
      throw new Error('the server tokenizer counts per batch');
    })
  : createTokenCounter(init.tokenizerPath, init.forceCounter).then((counter) => counter.count);
const ready: Promise<BatchEnv> = localCount.then((count) => ({
  count,
  registry: registryFor(init.convention),
  compareWith,
  level: init.level,
}));

ready.then(
  () => port.postMessage({ ready: true }),
  () => {},
);
// A tokenizer this thread cannot load is not a crash: the main thread counts instead, nothing lost.
ready.catch((err: unknown) => {
  port.postMessage({ initFailed: err instanceof Error ? err.message : String(err) });
  port.close();
});

/** Lines buffers kept for reuse: enough for the results in flight, the rest left to the GC. */
const MAX_SPARES = 4;
const spares: ArrayBuffer[] = [];
init.spares?.unref();

/** A written buffer to reuse, after taking in all that came back since the last batch. */
function takeSpare(): ArrayBuffer | undefined {
  const port = init.spares;
  if (port)
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port))
      if (spares.length < MAX_SPARES) spares.push(m.message as ArrayBuffer);
  return spares.pop();
}

let batches = 0;
port.on('message', (req: BatchRequest) => {
  void ready.then(
    async (env) => {
      batches++;
      if (init.crashAtBatch !== undefined && batches === init.crashAtBatch) {
        throw new Error(`test hook: record worker crashes on batch ${batches}`);
      }
      // The server's counts arrive asynchronously; batches may then finish out of order (the pipeline matches ids).
      const count = serverCounter
        ? await serverCounter.countBatch(req.items.map((i) => ({ texts: i.texts, usage: i.input.usage })))
        : env.count;
      const res = processBatch(req, { ...env, count }, takeSpare());
      // Its columns and lines are moved, not copied: this thread keeps nothing of a batch.
      port.postMessage(res, transferables(res));
    },
    () => {},
  );
});
