// Record workers run below the JS thread (their own nice value; Linux), so that counting on a client
// without a core to spare yields to the sends; the JS thread and the rest of the process keep theirs.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../../src/metrics/catalogue.js';
import { RECORD_WORKER_NICE, RecordPipeline } from '../../../src/run/pipeline/record-pipeline.js';
import { ownThreadId } from '../../../src/run/pipeline/thread-priority.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';

/** Each thread of this process and its nice value, from /proc/self/task/<tid>/stat (field 19). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      out.set(Number(t), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

const distPriority = new URL('../../../dist/run/pipeline/thread-priority.js', import.meta.url).href;

describe.runIf(process.platform === 'linux')('record workers below the JS thread', () => {
  it('the calling thread is the one lowered: a worker thread, not the process', async () => {
    expect(ownThreadId()).toBe(process.pid);
    const base = niceByThread().get(process.pid)!;
    // The timer keeps the worker's thread alive until terminate(): left idle it could exit before
    // /proc is read (CI saw its tid gone once).
    const code = `const { parentPort } = require('node:worker_threads');
      setInterval(() => {}, 60_000);
      import(${JSON.stringify(distPriority)}).then((m) => parentPort.postMessage({ tid: m.ownThreadId(), nice: m.lowerOwnPriority(3) }));`;
    const w = new Worker(code, { eval: true });
    const got = await new Promise<{ tid: number; nice: number }>((resolve, reject) => w.once('message', resolve).once('error', reject));
    const seen = niceByThread();
    await w.terminate();
    expect(got.tid).not.toBe(process.pid);
    expect(got.nice).toBe(Math.min(19, base + 3));
    expect(seen.get(got.tid)).toBe(Math.min(19, base + 3));
    expect(seen.get(process.pid)).toBe(base);
  });

  it(`a record pipeline's workers run ${RECORD_WORKER_NICE} below; nothing else moves`, async () => {
    const tk = await loadTokenizer();
    const before = niceByThread();
    const base = before.get(process.pid)!;
    const lowered = Math.min(19, base + RECORD_WORKER_NICE);
    const pipe = new RecordPipeline({
      workers: 2,
      tokenizerPath: tk.path,
      count: (t) => tk.count(t),
      convention: 'aiperf',
      registry: defaultRegistry(),
      file: null,
    });
    await pipe.ready();
    const during = niceByThread();
    await pipe.close();
    const moved = [...during].filter(([tid, nice]) => nice !== (before.get(tid) ?? base));
    // The two workers' threads, each lowered; every thread that was there before keeps its value.
    expect(moved.length).toBe(2);
    for (const [, nice] of moved) expect(nice).toBe(lowered);
    expect(during.get(process.pid)).toBe(base);
  });
});
