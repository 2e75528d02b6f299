// Credit accounting: what was issued, and how each issued request ended.
import type { RecordStatus } from '../records/types.js';

export class CreditCounters {
  sent = 0;
  succeeded = 0;
  errored = 0;
  cancelled = 0;

  get completed(): number {
    return this.succeeded + this.errored + this.cancelled;
  }

  get inFlight(): number {
    return this.sent - this.completed;
  }

  settle(status: RecordStatus): void {
    if (status === 'ok') this.succeeded++;
    else if (status === 'cancelled') this.cancelled++;
    else this.errored++;
  }
}
