// --preconnect: the connections a closed loop needs are opened before its first request, as wrk
// does, so the first wave's TTFT is the server's and not a connect burst of the harness's making.
// Only the native engine can (undici's pool connects on demand).
import type { RunConfig } from '../../config/types.js';
import type { BenchmarkPlan } from '../../load/benchmark.js';
import type { LoadMode } from '../../load/plan.js';
import type { PreconnectResult } from '../../transport/types.js';
import type { TransportRouter } from '../../transport/router.js';

/** The longest the run waits for its connections before it starts anyway (those not up open on demand). */
const PRECONNECT_WAIT_MS = 10_000;

/** In a closed loop: its concurrency's connections, no more than the requests it will send; null when none opened. */
export async function preconnectRun(
  cfg: RunConfig,
  mode: LoadMode,
  plan: BenchmarkPlan,
  connections: number | null,
  transport: TransportRouter,
): Promise<PreconnectResult | null> {
  if (!cfg.preconnect || mode !== 'concurrency' || connections === null) return null;
  const counts = [plan.profiling.requestCount, plan.warmup ? plan.warmup.requestCount : 0];
  const known = counts.every((c) => c !== null);
  const n = known ? Math.min(connections, (counts[0] ?? 0) + (counts[1] ?? 0)) : connections;
  return n > 0 ? transport.preconnect(n, Math.min(PRECONNECT_WAIT_MS, cfg.request_timeout_s * 1000)) : null;
}
