// `servebench mock --max-concurrent N`: N generation requests served at once, the rest queued in
// arrival order, so the k-th of a burst waits floor(k / N) service times before its TTFT starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { postSse } from '../helpers/mock.js';
import { runCli } from '../helpers/cli.js';

const TTFT = 50;
const ITL = 20;
const TOKENS = 5;
/** The slot is held until the response ends: TTFT + (tokens − 1)·ITL. */
const SERVICE = TTFT + (TOKENS - 1) * ITL;

describe('mock --max-concurrent', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--max-concurrent', '2', '--ttft-ms', String(TTFT), '--itl-ms', String(ITL)]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('a burst of 6 with 2 slots: TTFTs in three steps of one service time', async () => {
    const body = { model: 'm', stream: true, max_tokens: TOKENS, messages: [{ role: 'user', content: 'hi' }] };
    // Once to open the six connections, so the measured burst does not include their setup.
    await Promise.all(Array.from({ length: 6 }, () => postSse(`${mock.url}/v1/chat/completions`, body)));
    const results = await Promise.all(Array.from({ length: 6 }, () => postSse(`${mock.url}/v1/chat/completions`, body)));
    const ttfts = results
      .map((r) => {
        expect(r.status).toBe(200);
        return r.events.find((e) => e.json?.choices?.[0]?.delta?.content)!.t;
      })
      .sort((a, b) => a - b);
    // Two at a time: the pairs start together, each pair one service time after the one before.
    expect(ttfts[0]).toBeGreaterThanOrEqual(TTFT - 2);
    for (const k of [0, 2, 4]) expect(ttfts[k + 1] - ttfts[k]).toBeLessThan(30);
    for (const k of [2, 4]) {
      // Never sooner than its slot can free (measured from the burst's send); a step later by at most
      // 60 ms than one service time (the mock's timers on a loaded host).
      expect(ttfts[k]).toBeGreaterThanOrEqual(TTFT + (k / 2) * SERVICE - 2);
      expect(ttfts[k] - ttfts[k - 2]).toBeLessThan(SERVICE + 60);
    }
  });

  it('a bad value is one line naming the flag, exit code 2', async () => {
    const r = await runCli(['mock', '--max-concurrent', '-1', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--max-concurrent');
  });
});
