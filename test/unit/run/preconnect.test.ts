// --preconnect: how many connections a run opens before its load (a closed loop's concurrency, no
// more than the requests it will send; none in open loop or with --no-preconnect).
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/config/defaults.js';
import { buildRunConfig, type ProfileFlags } from '../../../src/config/validate.js';
import { buildPlan } from '../../../src/load/plan.js';
import { preconnectRun } from '../../../src/run/single/preconnect.js';
import type { TransportRouter } from '../../../src/transport/router.js';
import { singleTurnSource } from '../load/fakes.js';

/** What preconnectRun asks of the run's transport, for these flags. */
async function asked(flags: ProfileFlags): Promise<{ n: number; ms: number } | null> {
  const cfg = buildRunConfig(flags, {});
  const { plan, mode, connections } = buildPlan(cfg, singleTurnSource());
  let seen: { n: number; ms: number } | null = null;
  const router = {
    preconnect: (n: number, ms: number) => {
      seen = { n, ms };
      return Promise.resolve({ asked: n, opened: n, ms: 0 });
    },
  } as unknown as TransportRouter;
  await preconnectRun(cfg, mode, plan, connections, router);
  return seen;
}

describe('--preconnect', () => {
  it('is on by default and --no-preconnect turns it off', () => {
    expect(DEFAULTS.preconnect).toBe(true);
    expect(buildRunConfig({}, {}).preconnect).toBe(true);
    expect(buildRunConfig({ preconnect: false }, {}).preconnect).toBe(false);
  });

  it('opens the concurrency, no more than the requests, waiting at most 10 s or the request timeout', async () => {
    expect(await asked({ concurrency: 64, 'request-count': 1000 })).toEqual({ n: 64, ms: 10_000 });
    expect(await asked({ concurrency: 64, 'request-count': 10 })).toEqual({ n: 10, ms: 10_000 });
    expect(await asked({ concurrency: 64, 'request-count': 10, 'warmup-request-count': 20 })).toMatchObject({ n: 30 });
    expect(await asked({ concurrency: 8, 'benchmark-duration': 5 })).toMatchObject({ n: 8 });
    expect(await asked({ concurrency: 8, 'request-count': 100, 'request-timeout-seconds': 2 })).toEqual({ n: 8, ms: 2000 });
  });

  it('opens nothing in open loop or when turned off', async () => {
    expect(await asked({ 'request-rate': 50, 'request-count': 100 })).toBeNull();
    expect(await asked({ concurrency: 64, 'request-count': 100, preconnect: false })).toBeNull();
  });
});
