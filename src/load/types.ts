// The scheduler's contract with the rest of the pipeline: what a phase is, how a credit is
// dispatched, and what comes back to it (the status, and the reply a multi-turn session needs).
import type { Conversation } from '../dataset/types.js';
import type { Credit } from '../model/credit.js';
import type { Phase } from '../model/phase.js';
import type { RecordStatus } from '../model/raw-record.js';
import type { Stage } from './stages.js';

/** What the scheduler learns from one dispatched request. */
export interface DispatchResult {
  /** 'unsent': the transport never sent it (a slot gate's waiting request when the run stopped); no record. */
  status: RecordStatus | 'unsent';
  /** The assistant's reply text (content), when the caller asked for it (multi-turn history). */
  reply: string | null;
}

export interface DispatchOptions {
  /** Aborts this one request (deliberate cancellation); null when it is never cancelled on purpose. */
  signal: AbortSignal | null;
  /** True when the reply text is needed (a later turn of the same session carries it). */
  wantReply: boolean;
}

/** Sends one credit, processes and stores its record; must never reject. */
export type DispatchFn = (credit: Credit, opts: DispatchOptions) => Promise<DispatchResult>;

export interface ArrivalSpec {
  pattern: 'constant' | 'poisson' | 'gamma';
  /** Target rate in requests/s once any ramp is over. */
  rate: number;
  /** Gamma shape (CV of the inter-arrival times = 1/sqrt(smoothness)); ignored by the others. */
  smoothness: number;
  /** Linear ramp of the rate from 0 to `rate` over this many ns from the phase start; null: none. */
  rampNs: number | null;
  /** Seed label for the random patterns (same seed, same schedule). */
  seed: number | string;
  /** A shard's part: arrivals index, index + count, … of the whole schedule (load/shard-plan.ts). */
  shard?: { index: number; count: number };
  /** --stages: the rate follows these instead of `rate` and `rampNs`; the schedule ends with them. */
  stages?: readonly Stage[];
}

export type PhaseMode =
  /** Closed loop: `concurrency` requests in flight, each slot refilled when its request ends. */
  | { kind: 'concurrency'; concurrency: number; rampNs: number | null; stages?: readonly Stage[] }
  /** Open loop: request i at an absolute time from the phase start; optional cap on in-flight requests. */
  | { kind: 'rate'; arrival: ArrivalSpec; cap: number | null; capRampNs: number | null }
  /** Trace replay: each conversation's first turn at its trace timestamp (see replay.ts). */
  | { kind: 'fixed_schedule'; cap: number | null; schedule: ReplaySchedule };

export interface PhaseSpec {
  phase: Phase;
  mode: PhaseMode;
  /** Stop issuing after this many requests (null: unbounded; ignored by fixed_schedule). */
  requestCount: number | null;
  /** Stop issuing once this many ns have passed since the phase started (null: unbounded). */
  durationNs: number | null;
  /** After the measured part ends, keep the same load this many ns more, tagged 'cooldown'. */
  cooldownNs: number | null;
}

/**
 * A transport that runs a closed loop's slots itself (the native engine's slot gate): with the
 * gate open, at most `slots` requests are in flight and those sent beyond wait, in order, for the
 * next to end, so a wave of completions is followed at once by a wave of sends, whatever the JS
 * thread is doing. Each gated record's credit_issued_ns is when its slot came free.
 */
export interface SlotGate {
  /** How many requests may wait beyond `slots` (the closed loop keeps that many issued ahead). */
  ahead(slots: number): number;
  /**
   * Opens the gate held: what is sent waits until release(), so the first wave starts together.
   * False when the transport cannot gate that few (fewer slots than its I/O threads): no gate then.
   */
  open(slots: number): boolean;
  /** Frees every slot: the first wave starts now (its requests are credited from this moment). */
  release(): void;
  /** Requests still waiting end unsent (a run that stops sends no more): their dispatch answers 'unsent'. */
  cancelWaiting(): void;
  /** Every request goes out at once again (after the phase drained). */
  close(): void;
}

/** Seeded deliberate cancellation (--request-cancellation-rate/-delay). */
export interface CancellationSpec {
  rate: number;
  delayNs: number;
  seed: number | string;
}

/** A trace laid out for replay: conversations in time order, each with its offset from the phase start. */
export interface ReplaySchedule {
  entries: { conversation: Conversation; timestampMs: number; offsetNs: number }[];
  /** The trace time (ms) that maps to the phase start. */
  zeroMs: number;
  /** Turns stamped after this trace time (ms) are not sent; null: no end. */
  endOffsetMs: number | null;
}
