// How the engine's I/O thread is scheduled, against the fast mock as a real process: where the
// process may use SCHED_FIFO (root or CAP_SYS_NICE), a lightly loaded thread keeps it, and a thread
// busy most of a 100 ms window gives it up (native/engine/engine_sched.h), so a saturated engine cannot
// starve the JS thread that feeds it. Where SCHED_FIFO is refused, the thread is never counted real-time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../../src/mock/spawn.js';
import { NativeTransport } from '../../../src/transport/native.js';
import { credit, request } from './engine-helpers.js';

let light: SpawnedMock;
let flood: SpawnedMock;

beforeAll(async () => {
  [light, flood] = await Promise.all([
    spawnMock(['--fast', '--ttft-ms', '5', '--itl-ms', '10']),
    spawnMock(['--fast', '--ttft-ms', '1', '--itl-ms', '1']),
  ]);
});
afterAll(async () => {
  await Promise.all([light?.stop(), flood?.stop()]);
});

async function run(url: string, streams: number, tokens: number) {
  const t = new NativeTransport({ baseUrl: url, address: '127.0.0.1', connections: streams, requestTimeoutMs: 60_000, threads: 1 });
  try {
    const body = JSON.stringify({ model: 'mock-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: tokens, stream: true });
    const records = await Promise.all(Array.from({ length: streams }, () => t.send(credit(), request(true, body))));
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    return t.stats();
  } finally {
    await t.close();
  }
}

describe('the I/O thread priority', () => {
  it('stays real-time at light load and gives it up when saturated', async () => {
    // 4 streams, one event per 10 ms each: the thread is idle nearly all the time.
    const idle = await run(light.url, 4, 30);
    expect(idle.realtime_demotions).toBe(0);
    // 512 streams, one event per 1 ms each (512k events/s offered, about one per read): more
    // than one core can read, for about half a second.
    const busy = await run(flood.url, 512, 500);
    if (idle.realtime_threads === 1) {
      expect(busy.realtime_demotions).toBeGreaterThanOrEqual(1);
    } else {
      expect(idle.realtime_threads).toBe(0);
      expect(busy.realtime_threads).toBe(0);
      expect(busy.realtime_demotions).toBe(0);
    }
  });
});
