// The record workers' backlog in the harness report: always its peak, a warning only once the JS thread had to count.
import { describe, expect, it } from 'vitest';
import { noteRecordBacklog, type HarnessReport } from '../../../src/harness/monitor.js';

const report = (): HarnessReport => ({ warnings: [] }) as unknown as HarnessReport;

describe('noteRecordBacklog', () => {
  it('reports the peak, and warns only when the workers fell so far behind that the JS thread counted', () => {
    const calm = report();
    noteRecordBacklog(calm, 300, 1);
    expect(calm.record_backlog_max).toBe(300);
    expect(calm.records_counted_on_main).toBe(0);
    expect(calm.warnings).toEqual([]);
    const behind = report();
    noteRecordBacklog(behind, 40_000, 2, 5_120);
    expect(behind.record_backlog_max).toBe(40_000);
    expect(behind.records_counted_on_main).toBe(5_120);
    expect(behind.warnings).toHaveLength(1);
    expect(behind.warnings[0]).toMatch(
      /record workers \(2\) fell behind \(up to 40000 finished records waited\): 5120 records were counted on the JS thread/,
    );
    expect(behind.warnings[0]).toMatch(/--record-workers/);
  });
});
