// Timed response writers. Token chunk k is due at t0 + ttft + k*itl (absolute, so no drift);
// a non-streaming body is due when its last token would have been. Jobs run on the shared Clock.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Clock, ClockJob } from './clock.js';
import type { FailMode, MockOptions } from './options.js';
import { ChunkFormatter, completionBody, SSE_DONE, SSE_ERROR, SSE_MALFORMED, usageJson } from './openai.js';
import type { GenerationPlan } from './request.js';
import type { ResponseShape, StreamFormat } from './shape.js';
import type { MockRequestMetrics } from './server-metrics.js';
import { SpecStepCursor } from './spec-decode.js';
import { WordSource } from './text.js';

/** Stream faults act after this many chunks, so the client has seen a real start. */
export const RESET_AFTER_CHUNKS = 3;
const ERROR_AFTER_CHUNKS = 1;
/** Per wake-up limits for one stream, so itl 0 still yields to the event loop between batches. */
const MAX_BATCH_EVENTS = 256;
const MAX_BATCH_CHARS = 64 * 1024;
const SLACK_MS = 0.5;

export interface ResponseContext {
  res: ServerResponse;
  plan: GenerationPlan;
  opts: MockOptions;
  /** performance.now() when the request body was complete. */
  t0: number;
  id: string;
  created: number;
  /** A fault that acts inside the response (reset, malformed, sse-error); others never get here. */
  fault: FailMode | null;
  /** The mock's server metrics for this request (tokens as they are written). */
  metrics: MockRequestMetrics | null;
  /** Extra response headers (x-request-id echo). */
  headers: OutgoingHttpHeaders | null;
  /** The API's own response shapes (mock/shape.ts); absent: OpenAI chat/completions. */
  shape?: ResponseShape | null;
}

const SSE_HEADERS: OutgoingHttpHeaders = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
});

/**
 * Drop the connection mid-response. A plain close (FIN), not resetAndDestroy(): an RST can make the
 * client's kernel discard chunks it has received but not yet read, which would make how much
 * content arrived before the error depend on scheduling. Either way the chunked body never ends.
 */
export function resetConnection(res: ServerResponse): void {
  (res.socket ?? res.req.socket).destroy();
}

export class StreamJob implements ClockJob {
  due: number;
  private readonly fmt: StreamFormat;
  private readonly words: WordSource;
  private readonly firstDue: number;
  private readonly itl: number;
  private readonly tpc: number;
  private readonly nReasoningChunks: number;
  private readonly nChunks: number;
  private readonly resetAt: number;
  private readonly errorAt: number;
  private roleSent: boolean;
  private readonly roleDue: number;
  private k = 0;
  /** When the last token chunk and the usage chunk (or its turn, when none is asked for) went out. */
  private lastChunkAt: number | null = null;
  private usageAt: number | null = null;
  private sentReasoning = 0;
  private sentContent = 0;
  private closed = false;
  private readonly spec: SpecStepCursor;

  constructor(
    private readonly ctx: ResponseContext,
    private readonly clock: Clock,
  ) {
    const { plan, opts, t0, res } = ctx;
    this.fmt = ctx.shape?.stream() ?? new ChunkFormatter(plan, ctx.id, ctx.created);
    this.spec = new SpecStepCursor(plan.specSteps ?? null);
    this.words = new WordSource(plan.textSeed, plan.words);
    this.itl = opts.itlMs;
    this.tpc = opts.tokensPerChunk;
    this.firstDue = t0 + opts.ttftMs;
    this.nReasoningChunks = Math.ceil(plan.reasoningTokens / this.tpc);
    this.nChunks = this.nReasoningChunks + Math.ceil(plan.contentTokens / this.tpc);
    this.resetAt = Math.min(RESET_AFTER_CHUNKS, this.nChunks);
    this.errorAt = Math.min(ERROR_AFTER_CHUNKS, this.nChunks);
    this.roleSent = plan.kind !== 'chat';
    this.roleDue = t0 + Math.max(0, opts.ttftMs - opts.roleChunkLeadMs);
    this.due = this.roleSent ? this.firstDue : this.roleDue;
    res.on('close', () => {
      this.closed = true;
    });
    res.writeHead(200, ctx.headers ? { ...SSE_HEADERS, ...ctx.headers } : SSE_HEADERS);
    res.flushHeaders();
  }

  private dueOf(k: number): number {
    return this.firstDue + k * this.itl;
  }

  /**
   * The closing events: usage --usage-delay-ms after the last token chunk went out, [DONE]
   * --done-delay-ms after the usage. Counted from the writes, not the schedule, so a late last
   * chunk keeps its gap to them (what a client must tell apart).
   */
  private usageDue(): number {
    return (this.lastChunkAt ?? -Infinity) + this.ctx.opts.usageDelayMs;
  }

  private doneDue(): number {
    return (this.usageAt ?? -Infinity) + this.ctx.opts.doneDelayMs;
  }

  private usage(): string | null {
    const p = this.ctx.plan;
    return p.continuousUsage ? usageJson(p.promptTokens, this.sentContent, this.sentReasoning) : null;
  }

  private chunk(k: number): string {
    const p = this.ctx.plan;
    if (k < this.nReasoningChunks) {
      const n = Math.min(this.tpc, p.reasoningTokens - this.sentReasoning);
      this.sentReasoning += n;
      this.ctx.metrics?.tokens(n);
      return this.fmt.reasoning(this.words.take(n), this.usage(), this.spec.upTo(this.sentReasoning + this.sentContent));
    }
    const n = Math.min(this.tpc, p.contentTokens - this.sentContent);
    this.sentContent += n;
    this.ctx.metrics?.tokens(n);
    const finish = k === this.nChunks - 1 ? p.finishReason : null;
    return this.fmt.content(this.words.take(n), finish, this.usage(), this.spec.upTo(this.sentReasoning + this.sentContent));
  }

  run(now: number): number {
    if (this.closed) return -1;
    const horizon = now + SLACK_MS;
    const { res, fault, plan } = this.ctx;
    let out = '';
    if (!this.roleSent) {
      if (this.roleDue > horizon) return this.roleDue;
      out += this.fmt.role(this.usage());
      this.roleSent = true;
    }
    let events = 0;
    while (events < MAX_BATCH_EVENTS && out.length < MAX_BATCH_CHARS) {
      const k = this.k;
      if (fault === 'reset' && k === this.resetAt) {
        // At the time the next chunk would have gone out, so what came before has arrived.
        if (this.dueOf(k) > horizon) break;
        if (out) res.write(out);
        resetConnection(res);
        this.closed = true;
        return -1;
      }
      if (k >= this.nChunks || (fault === 'sse-error' && k === this.errorAt)) {
        if (k > 0 && this.dueOf(Math.min(k, this.nChunks - 1)) > horizon) break;
        if (fault === 'sse-error') out += this.fmt.error?.() ?? SSE_ERROR;
        else {
          if (this.usageAt === null) {
            if (this.usageDue() > horizon) break;
            if (plan.includeUsage) out += this.fmt.usage(usageJson(plan.promptTokens, plan.contentTokens, plan.reasoningTokens));
            this.usageAt = now;
          }
          if (this.doneDue() > horizon) break;
        }
        res.end(out + (this.fmt.done?.() ?? SSE_DONE));
        this.closed = true;
        return -1;
      }
      if (this.dueOf(k) > horizon) break;
      out += this.chunk(k);
      this.k = k + 1;
      if (this.k === this.nChunks) this.lastChunkAt = now;
      events++;
      if (fault === 'malformed' && this.k === 1) out += SSE_MALFORMED;
    }
    // The closing events go out with the last chunk unless delayed; a reset waits one more itl.
    const closing = this.usageAt !== null ? this.doneDue() : Math.max(this.dueOf(this.nChunks - 1), this.usageDue());
    const next = this.k >= this.nChunks && fault !== 'reset' ? closing : this.dueOf(this.k);
    if (out && !res.write(out)) {
      // Slow reader: pause until the socket drains; later chunks keep their absolute due times.
      res.once('drain', () => {
        this.due = Math.max(next, performance.now());
        this.clock.add(this);
      });
      return -1;
    }
    return next;
  }
}

export class BodyJob implements ClockJob {
  due: number;
  private closed = false;

  constructor(private readonly ctx: ResponseContext) {
    const { plan, opts, t0, res } = ctx;
    const chunks = Math.ceil(plan.reasoningTokens / opts.tokensPerChunk) + Math.ceil(plan.contentTokens / opts.tokensPerChunk);
    this.due = t0 + opts.ttftMs + (chunks - 1) * opts.itlMs;
    res.on('close', () => {
      this.closed = true;
    });
  }

  run(): number {
    if (this.closed) return -1;
    const { res, fault, plan } = this.ctx;
    if (fault === 'reset') {
      resetConnection(res);
      return -1;
    }
    let body: string;
    if (fault === 'malformed') body = SSE_MALFORMED.slice(6, -2);
    else if (fault === 'sse-error') body = SSE_ERROR.slice(6, -2);
    else {
      // Same order as the stream (reasoning first) so both modes give the same text for a seed.
      const words = new WordSource(plan.textSeed, plan.words);
      const reasoning = words.take(plan.reasoningTokens);
      const content = words.take(plan.contentTokens);
      body = this.ctx.shape
        ? this.ctx.shape.body(content, reasoning)
        : completionBody(plan, this.ctx.id, this.ctx.created, content, reasoning);
      this.ctx.metrics?.tokens(plan.reasoningTokens + plan.contentTokens);
    }
    const headers: OutgoingHttpHeaders = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...this.ctx.headers,
    };
    res.writeHead(200, headers);
    res.end(body);
    return -1;
  }
}
