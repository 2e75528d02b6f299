// The router a run sends through, as undici's Agent picks a Pool per origin: one transport per --url
// (each its own native engine or undici pool, so neither transport needs to know about several
// origins), one request builder per URL and model, and the pick of each request's target
// (load/target-choice.ts). The credit sent carries the target, so the record
// (and records.jsonl) names the URL and model it went to.
import type { RunConfig } from '../config/types.js';
import type { EndpointAdapter } from '../endpoints/types.js';
import { RequestBuilder } from '../endpoints/request.js';
import { TargetSelector } from '../load/target-choice.js';
import type { SlotGate } from '../load/types.js';
import type { Credit } from '../model/credit.js';
import type { RawRecord } from '../model/raw-record.js';
import { NativeTransport } from './native.js';
import { openTransport } from './select.js';
import { RealtimeTransport } from './realtime.js';
import { capWaitMs } from '../timers.js';
import type { PreconnectResult, StreamDecode, Transport } from './types.js';
import type { RenderedRequest } from '../endpoints/request.js';

interface Target {
  url: string;
  transport: Transport;
  /** model → builder (the body's model and this URL's credentials) and the credits' `target`. */
  builders: Map<string, { builder: RequestBuilder; target: { url: string; model: string } }>;
}

/**
 * The most requests a closed loop keeps waiting at a slot gate beyond its slots: a whole wave up to
 * c=1,024 (a wave of completions then never finds the queue empty), bounded above that.
 */
export const GATE_AHEAD_MAX = 1024;

export class TransportRouter implements Transport {
  readonly name: string;
  private readonly selector: TargetSelector;

  private constructor(
    private readonly cfg: RunConfig,
    private readonly adapter: EndpointAdapter,
    private readonly targets: Target[],
  ) {
    this.name = targets[0].transport.name;
    const t = cfg.targets;
    this.selector = new TargetSelector({
      urlCount: targets.length,
      urlWeights: targets.length === t.urls.length ? t.url_weights : null,
      models: t.models.length > 0 ? t.models : [cfg.model],
      strategy: t.model_selection_strategy,
      modelWeights: t.models.length > 0 ? t.model_weights : null,
      seed: cfg.random_seed,
    });
  }

  /**
   * Opens a transport per --url; `baseUrl` stands alone when the run has none (the mock) or one
   * (a sweep point's own base URL is the run's).
   */
  static async open(
    cfg: RunConfig,
    adapter: EndpointAdapter,
    baseUrl: string,
    connections: number | null,
    log: (msg: string) => void,
    decode?: StreamDecode,
  ): Promise<TransportRouter> {
    const urls = cfg.targets.urls.length > 1 ? cfg.targets.urls : [{ url: baseUrl, credentials: cfg.url_credentials }];
    const targets: Target[] = [];
    try {
      for (const u of urls) {
        // Realtime speaks WebSocket (ws, on the JS thread); everything else HTTP on --transport's choice.
        const transport =
          cfg.endpoint_type === 'realtime'
            ? new RealtimeTransport({ baseUrl: u.url, requestTimeoutMs: capWaitMs(cfg.request_timeout_s * 1000) })
            : await openTransport(cfg, u.url, connections, u === urls[0] ? log : () => {}, decode);
        targets.push({ url: u.url, transport, builders: new Map() });
      }
    } catch (err) {
      await Promise.all(targets.map((t) => t.transport.close()));
      throw err;
    }
    if (urls.length > 1) log(`targets: ${urls.length} URLs, ${cfg.targets.url_weights ? 'weighted' : 'round robin'}`);
    return new TransportRouter(cfg, adapter, targets);
  }

  /** The native engine's counters of the first target (the harness monitor's). */
  get readCoalesceUs(): number | undefined {
    return (this.targets[0].transport as { readCoalesceUs?: number }).readCoalesceUs;
  }

  stats(): Record<string, unknown> {
    const t = this.targets[0].transport as { stats?: () => Record<string, unknown> };
    return t.stats ? t.stats() : {};
  }

  /**
   * Opens `n` connections before the load, split over the URLs by their weights (a transport
   * without preconnect, undici's, opens on demand); null when no target can.
   */
  async preconnect(n: number, timeoutMs: number): Promise<PreconnectResult | null> {
    const w = this.cfg.targets.url_weights;
    const weights = w && w.length === this.targets.length ? w : this.targets.map(() => 1);
    const total = weights.reduce((a, b) => a + b, 0);
    const done = await Promise.all(
      this.targets.map((t, i) => {
        const p = t.transport as { preconnect?: (n: number, ms: number) => Promise<PreconnectResult> };
        const share = Math.ceil((n * weights[i]) / total);
        return p.preconnect && share > 0 ? p.preconnect(share, timeoutMs) : Promise.resolve(null);
      }),
    );
    const ran = done.filter((d): d is PreconnectResult => d !== null);
    if (ran.length === 0) return null;
    return {
      asked: ran.reduce((a, d) => a + d.asked, 0),
      opened: ran.reduce((a, d) => a + d.opened, 0),
      ms: Math.max(...ran.map((d) => d.ms)),
    };
  }

  /** The request for a credit, its target chosen now (in issue order). */
  prepare(credit: Credit): { credit: Credit; request: RenderedRequest; target: number } {
    const chosen = this.selector.next();
    // A dataset that names the request's model (a trace's model column) overrides the selection.
    const pick = credit.turn.model === undefined ? chosen : { url: chosen.url, model: credit.turn.model };
    const target = this.targets[pick.url];
    let built = target.builders.get(pick.model);
    if (built === undefined) {
      const u = this.cfg.targets.urls.find((x) => x.url === target.url);
      const cfg: RunConfig = {
        ...this.cfg,
        model: pick.model,
        url: target.url,
        url_credentials: u ? u.credentials : this.cfg.url_credentials,
      };
      // One `target` object per URL and model, shared by its credits (and the records that keep them): nothing writes it.
      built = { builder: new RequestBuilder(cfg, this.adapter), target: { url: target.url, model: pick.model } };
      target.builders.set(pick.model, built);
    }
    const c: Credit = { ...credit, target: built.target };
    return { credit: c, request: built.builder.build(c), target: pick.url };
  }

  /**
   * The slot gate of the one target's transport (the native engine's), or null: with several URLs
   * each would need its own share of the slots. `ahead`: one more wave of requests waits there, up
   * to GATE_AHEAD_MAX (each holds its body: a wave of 32k-token prompts at c=10,000 would be GBs).
   */
  slotGate(): SlotGate | null {
    if (this.targets.length !== 1) return null;
    const t = this.targets[0].transport;
    if (!(t instanceof NativeTransport)) return null;
    let open = false;
    let size = 0;
    return {
      ahead: (slots) => Math.min(slots, GATE_AHEAD_MAX),
      open: (slots) => {
        // Each I/O thread runs its share of the slots, at least one.
        if (slots < t.threads) return false;
        open = true;
        size = slots;
        t.setGate(slots, true);
        return true;
      },
      release: () => {
        if (open) t.setGate(size, false);
      },
      cancelWaiting: () => {
        if (open) t.cancelWaiting();
      },
      close: () => {
        if (!open) return;
        open = false;
        t.setGate(0, false);
      },
    };
  }

  /** Picks the credit's target, builds its request and sends it there. */
  sendCredit(credit: Credit, signal?: AbortSignal | null): Promise<RawRecord> {
    const p = this.prepare(credit);
    return this.targets[p.target].transport.send(p.credit, p.request, signal);
  }

  /** A request already built goes to the first target (the Transport contract). */
  send(credit: Credit, request: RenderedRequest, signal?: AbortSignal | null): Promise<RawRecord> {
    return this.targets[0].transport.send(credit, request, signal);
  }

  cancelAll(reason: string): void {
    for (const t of this.targets) t.transport.cancelAll(reason);
  }

  async close(): Promise<void> {
    await Promise.all(this.targets.map((t) => t.transport.close()));
  }
}
