// The credit issuer: the one place a credit is made, stamped, sent and settled, shared by every
// load mode. It owns the in-flight count, the optional cap (a FIFO of due credits waiting for a
// slot), deliberate cancellation, and draining at the end of a phase within the grace period.
import { randomUUID } from 'node:crypto';
import { Rng } from '../model/rng.js';
import { setLongTimeout, type LongTimer } from '../timers.js';
import type { Credit } from '../model/credit.js';
import type { Phase } from '../model/phase.js';
import type { RunControl } from './control.js';
import type { CreditCounters } from './counters.js';
import type { Ticket } from './sessions.js';
import type { CancellationSpec, DispatchFn, DispatchResult } from './types.js';

export interface IssuerHooks {
  dispatch: DispatchFn;
  /** Cancel every request in flight; they settle as 'cancelled'. */
  cancelAll(reason: string): void;
}

export interface IssueArgs {
  ticket: Ticket;
  phase: Phase;
  counters: CreditCounters;
  /** When the schedule wanted it sent; null in closed loop. */
  targetedNs: bigint | null;
  /** Fixed-schedule replay: the trace timestamp (ms) this request was scheduled at. */
  traceTimestampMs?: number;
  /** Told how the request ended (sessions build their next turn from it). */
  onSettled?(ticket: Ticket, result: DispatchResult, endNs: bigint): void;
}

interface Pending {
  credit: Credit;
  args: IssueArgs;
}

export class CreditIssuer {
  /** Requests handed to the transport and not yet settled, over every phase. */
  inFlight = 0;
  private nextIndex = 0;
  private readonly queue: Pending[] = [];
  private queueHead = 0;
  private limit: (() => number) | null = null;
  private idleWaiters: (() => void)[] = [];
  private readonly cancelRng: Rng | null;

  constructor(
    private readonly hooks: IssuerHooks,
    readonly control: RunControl,
    private readonly cancellation: CancellationSpec | null = null,
  ) {
    this.cancelRng = cancellation && cancellation.rate > 0 ? new Rng(`cancel/${String(cancellation.seed)}`) : null;
  }

  /** Credits issued so far (the next credit's index). */
  get issued(): number {
    return this.nextIndex;
  }

  get queued(): number {
    return this.queue.length - this.queueHead;
  }

  /** The cap on requests in flight for what follows (null: none); re-read on every check. */
  setLimit(limit: (() => number) | null): void {
    this.limit = limit;
    this.pump();
  }

  /** Make and stamp a credit; send it now when a slot is free, else queue it (FIFO). */
  issue(args: IssueArgs): void {
    const credit = this.makeCredit(args);
    if (this.queued === 0 && this.hasSlot()) void this.send(credit, args);
    else this.queue.push({ credit, args });
  }

  /** Make, stamp and send a credit at once (closed loop: the caller holds the slot); resolves when it settles. */
  issueNow(args: IssueArgs): Promise<DispatchResult> {
    return this.send(this.makeCredit(args), args);
  }

  /** Re-check the cap (after it grew with a ramp). */
  pump(): void {
    while (this.queued > 0 && this.hasSlot()) {
      const p = this.queue[this.queueHead++];
      if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
        this.queue.splice(0, this.queueHead);
        this.queueHead = 0;
      }
      void this.send(p.credit, p.args);
    }
  }

  /** Credits still waiting for a slot are never sent: count them as unsent. */
  dropQueued(): number {
    const dropped = this.queue.slice(this.queueHead);
    this.queue.length = 0;
    this.queueHead = 0;
    for (const p of dropped) p.args.counters.unsent++;
    this.notifyIdle();
    return dropped.length;
  }

  /** Resolves once nothing is in flight and nothing waits for a slot. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0 && this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Waits for the requests in flight (and queued ones) to finish. The grace period starts now when
   * `graceNow`, else at the first stop (Ctrl-C); `graceNs` null means no limit. A cancel (second
   * Ctrl-C) or the end of the grace period drops the queue and cancels what is in flight.
   * Returns true when requests had to be cancelled.
   */
  async drain(graceNs: number | null, graceNow: boolean): Promise<boolean> {
    if (this.control.stopped) this.dropQueued();
    let graceTimer: LongTimer | null = null;
    let graceOver = false;
    let wake: () => void = () => {};
    const armGrace = () => {
      if (graceTimer || graceNs === null) return;
      graceTimer = setLongTimeout(
        () => {
          graceOver = true;
          wake();
        },
        Math.ceil(graceNs / 1e6),
      );
    };
    if (graceNow) armGrace();
    const off = this.control.onChange(() => {
      this.dropQueued();
      armGrace();
      wake();
    });
    try {
      for (;;) {
        if (this.inFlight === 0 && this.queued === 0) return false;
        if (this.control.cancelled || graceOver) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
          void this.whenIdle().then(resolve);
        });
      }
      this.dropQueued();
      this.hooks.cancelAll(this.control.cancelled ? 'cancelled by the user (a second signal)' : 'grace period over');
      await this.whenIdle();
      return true;
    } finally {
      off();
      (graceTimer as LongTimer | null)?.clear(); // set in armGrace (a closure TS does not follow)
    }
  }

  private hasSlot(): boolean {
    return this.limit === null || this.inFlight < this.limit();
  }

  private makeCredit(args: IssueArgs): Credit {
    const credit: Credit = {
      index: this.nextIndex++,
      phase: args.phase,
      x_request_id: randomUUID(),
      credit_issued_ns: process.hrtime.bigint(),
      targeted_start_ns: args.targetedNs,
      turn: args.ticket.turn,
    };
    if (args.traceTimestampMs !== undefined) credit.trace_timestamp_ms = args.traceTimestampMs;
    if (args.ticket.generationNs !== undefined) credit.generation_delay_ns = args.ticket.generationNs;
    return credit;
  }

  private async send(credit: Credit, args: IssueArgs): Promise<DispatchResult> {
    this.inFlight++;
    args.counters.sent++;
    let timer: LongTimer | null = null;
    let controller: AbortController | null = null;
    if (this.cancelRng && this.cancelRng.next() < this.cancellation!.rate) {
      controller = new AbortController();
      const c = controller;
      timer = setLongTimeout(() => c.abort(), Math.round(this.cancellation!.delayNs / 1e6));
    }
    let result: DispatchResult;
    try {
      result = await this.hooks.dispatch(credit, { signal: controller?.signal ?? null, wantReply: args.ticket.wantReply });
    } catch (err) {
      // dispatch must not reject; if it does, the request still ends as exactly one outcome.
      result = { status: 'error', reply: null };
      process.emitWarning(`servebench: dispatch failed unexpectedly: ${String(err)}`);
    }
    timer?.clear();
    const endNs = process.hrtime.bigint();
    this.inFlight--;
    if (result.status === 'unsent') {
      // Never left the transport's gate: counted as a credit that never left a queue.
      args.counters.sent--;
      args.counters.unsent++;
    } else {
      args.counters.settle(result.status);
    }
    args.onSettled?.(args.ticket, result, endNs);
    this.pump();
    this.notifyIdle();
    return result;
  }

  private notifyIdle(): void {
    if (this.inFlight !== 0 || this.queued !== 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
