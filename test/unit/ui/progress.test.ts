import { describe, expect, it } from 'vitest';
import { CreditCounters } from '../../../src/load/counters.js';
import { formatProgress } from '../../../src/ui/progress.js';

describe('progress line', () => {
  it('shows done/total, rate, in flight, errors and ETA', () => {
    const c = new CreditCounters();
    c.sent = 30;
    c.succeeded = 18;
    c.errored = 2;
    const line = formatProgress(c, { requestCount: 100, durationS: null }, 10, 'profiling');
    c.cancelled = 1;
    const withCancelled = formatProgress(c, { requestCount: 100, durationS: null }, 10, 'profiling');
    expect(withCancelled).toBe('[profiling] 21/100 requests | 2.1 req/s | sent 30 | in flight 9 | errors 2 | cancelled 1 | ETA 38s');
    c.cancelled = 0;
    expect(line).toBe('[profiling] 20/100 requests | 2.0 req/s | sent 30 | in flight 10 | errors 2 | cancelled 0 | ETA 40s');
  });
  it('shows elapsed of duration', () => {
    const c = new CreditCounters();
    const line = formatProgress(c, { requestCount: null, durationS: 60 }, 12.34, 'profiling');
    expect(line).toContain('12.3/60 s');
    expect(line).toContain('ETA 48s');
  });
});
