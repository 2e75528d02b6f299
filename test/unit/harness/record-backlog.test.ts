// The record workers' backlog in the harness report: always its peak, a warning only past the bound.
import { describe, expect, it } from 'vitest';
import { RECORD_BACKLOG_WARN, noteRecordBacklog, type HarnessReport } from '../../../src/harness/monitor.js';

const report = (): HarnessReport => ({ warnings: [] }) as unknown as HarnessReport;

describe('noteRecordBacklog', () => {
  it('reports the peak, and warns only when the workers fell far behind', () => {
    const calm = report();
    noteRecordBacklog(calm, 300, 1);
    expect(calm.record_backlog_max).toBe(300);
    expect(calm.warnings).toEqual([]);
    const behind = report();
    noteRecordBacklog(behind, RECORD_BACKLOG_WARN + 1, 2);
    expect(behind.record_backlog_max).toBe(RECORD_BACKLOG_WARN + 1);
    expect(behind.warnings).toHaveLength(1);
    expect(behind.warnings[0]).toMatch(/50001 finished records waited for the record workers \(2\)/);
    expect(behind.warnings[0]).toMatch(/--record-workers/);
  });
});
