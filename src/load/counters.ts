// Credit accounting: what was issued, and how each issued request ended.
// sent = succeeded + errored + cancelled + in flight, at every moment.
import type { RecordStatus } from '../model/raw-record.js';

export interface CreditCountsJson {
  sent: number;
  completed: number;
  succeeded: number;
  errored: number;
  cancelled: number;
  in_flight: number;
  /** Credits that were due but still waiting for a slot when the run stopped: never sent, no record. */
  unsent: number;
}

export class CreditCounters {
  /** Handed to the transport. */
  sent = 0;
  succeeded = 0;
  errored = 0;
  cancelled = 0;
  unsent = 0;

  /** Settled requests, whatever their outcome. */
  get completed(): number {
    return this.succeeded + this.errored + this.cancelled;
  }

  /** Under a slot gate (SlotGate): its size. Of the requests sent, at most this many run; the rest wait at the transport. */
  gateSlots: number | null = null;

  /** Sent and not settled: running, and under a slot gate, waiting for one of its slots. */
  get outstanding(): number {
    return this.sent - this.completed;
  }

  get inFlight(): number {
    return this.gateSlots === null ? this.outstanding : Math.min(this.outstanding, this.gateSlots);
  }

  /** Sent and waiting at a slot gate. */
  get waiting(): number {
    return this.outstanding - this.inFlight;
  }

  settle(status: RecordStatus): void {
    if (status === 'ok') this.succeeded++;
    else if (status === 'cancelled') this.cancelled++;
    else this.errored++;
  }

  /** A settled request whose outcome changed afterwards (its record was lost in processing). */
  amend(from: RecordStatus, to: RecordStatus): void {
    if (from === to) return;
    if (from === 'ok') this.succeeded--;
    else if (from === 'cancelled') this.cancelled--;
    else this.errored--;
    this.settle(to);
  }

  toJSON(): CreditCountsJson {
    return {
      sent: this.sent,
      completed: this.completed,
      succeeded: this.succeeded,
      errored: this.errored,
      cancelled: this.cancelled,
      in_flight: this.inFlight,
      unsent: this.unsent,
    };
  }
}
