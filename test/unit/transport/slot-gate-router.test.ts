// The run's slot gate (transport/router.ts slotGate): the native engine's, for one URL only; at most
// GATE_AHEAD_MAX requests wait beyond the slots; fewer slots than I/O threads is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { buildRunConfig, type ProfileFlags } from '../../../src/config/validate.js';
import { adapterFor } from '../../../src/endpoints/index.js';
import { GATE_AHEAD_MAX, TransportRouter } from '../../../src/transport/router.js';

let router: TransportRouter | null = null;
afterEach(async () => {
  await router?.close();
  router = null;
});

async function open(flags: ProfileFlags): Promise<TransportRouter> {
  const cfg = buildRunConfig({ url: 'http://127.0.0.1:9', ...flags }, {});
  router = await TransportRouter.open(cfg, adapterFor(cfg.endpoint_type, cfg), cfg.url!, null, () => {}, undefined);
  return router;
}

describe('the run slot gate', () => {
  it('native, one URL: one wave waits ahead, at most GATE_AHEAD_MAX; a gate below the I/O threads is refused', async () => {
    const gate = (await open({ transport: 'native', 'transport-threads': 2 })).slotGate()!;
    expect(gate).not.toBeNull();
    expect(GATE_AHEAD_MAX).toBe(1024);
    expect([gate.ahead(8), gate.ahead(1024), gate.ahead(10_000)]).toEqual([8, 1024, 1024]);
    expect(gate.open(1)).toBe(false);
    expect(gate.open(2)).toBe(true);
    gate.release();
    gate.cancelWaiting();
    gate.close();
  });

  it('none over undici, or with several URLs', async () => {
    expect((await open({ transport: 'undici' })).slotGate()).toBeNull();
    await router!.close();
    expect((await open({ transport: 'native', url: ['http://127.0.0.1:9', 'http://127.0.0.1:10'] })).slotGate()).toBeNull();
  });
});
