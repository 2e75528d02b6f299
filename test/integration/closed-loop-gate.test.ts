// `servebench profile` against the mock process: a closed loop of a plain count runs on the native
// engine's slot gate (the first wave released together; each request after it starts the moment one
// ends, credited from then), never with more in flight than --concurrency; multi-turn conversations
// keep the JS slots.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { runCli, tmpDir } from '../helpers/cli.js';
import { peakInFlight } from '../helpers/in-flight.js';

interface Line {
  credit: bigint;
  start: bigint;
  end: bigint;
  status: string;
}

/** records.jsonl with the stamps kept exact. */
function readRecords(dir: string): Line[] {
  return fs
    .readFileSync(path.join(dir, 'records.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((text) => {
      const ns = (k: string) => BigInt(new RegExp(`"${k}":(\\d+)`).exec(text)![1]);
      return { credit: ns('credit_issued_ns'), start: ns('start_ns'), end: ns('end_ns'), status: JSON.parse(text).status };
    });
}

async function profile(mock: SpawnedMock, extra: string[]): Promise<Line[]> {
  const dir = tmpDir();
  const r = await runCli([
    'profile',
    '--url',
    mock.url,
    '--ui',
    'none',
    '--osl',
    '6',
    '--concurrency',
    '4',
    '--request-count',
    '24',
    '--transport',
    'native',
    '--artifact-dir',
    dir,
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return readRecords(dir);
}

describe('closed loop on the native slot gate (mock process)', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '3']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('each request after the first wave is credited from the end of one before it, and at most --concurrency run', async () => {
    const recs = await profile(mock, []);
    expect(recs.length).toBe(24);
    expect(recs.every((r) => r.status === 'ok')).toBe(true);
    expect(peakInFlight(recs)).toBe(4);
    const ends = new Set(recs.map((r) => r.end));
    const byStart = [...recs].sort((a, b) => (a.start < b.start ? -1 : 1));
    // The first wave was built behind the held gate and released at once: one credit time for all four.
    expect(new Set(byStart.slice(0, 4).map((r) => r.credit)).size).toBe(1);
    const chained = byStart.slice(4).filter((r) => ends.has(r.credit));
    expect(chained.length).toBe(20);
    // The engine started each as its slot came free: no JS turn in between.
    for (const r of chained) expect(Number(r.start - r.credit) / 1e6).toBeLessThan(5);
  });

  it("multi-turn conversations keep the JS slots: credits are the scheduler's own", async () => {
    const recs = await profile(mock, ['--conversation-turn-mean', '2']);
    expect(recs.length).toBe(24);
    expect(peakInFlight(recs)).toBeLessThanOrEqual(4);
    const ends = new Set(recs.map((r) => r.end));
    expect(recs.filter((r) => ends.has(r.credit)).length).toBe(0);
  });
});
