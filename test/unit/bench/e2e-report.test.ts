// The keeps-up part of the end-to-end bench report (bench/e2e-report.js): each client's CPU per event
// over its run, its share of one core, and the per-event budget the 95 % target leaves on one core.
import { describe, expect, it } from 'vitest';
import { report, type ReportTable } from '../../../bench/e2e-report.js';

const setting = { C: 1024, OSL: 128, COST: { ttft: 1, itl: 1 }, KEEP: { ttft: 5, itl: 5 }, offeredCost: 1e6, offeredKeep: 200_000 };
const keep = (over: Record<string, unknown>) => ({ requests: 1000, events: 100_000, wall_s: 0.5, ttft_ms_p50: 5, itl_ms_p50: 5, ...over });

function keepTable(tables: ReportTable[]): ReportTable {
  const t = tables.find((x) => x.title.startsWith('End to end, keeps up'));
  if (!t) throw new Error('no keeps-up table');
  return t;
}

function run(runs: Record<string, unknown[]>) {
  const labels = { c: 'C reader', aiohttp: 'aiohttp', sb: 'servebench' };
  return report({ reps: 1, big: 2048, small: 1024, keep_requests: 1000, runs }, ['c', 'aiohttp', 'sb'], labels, setting);
}

describe('bench/e2e-report.js keeps-up', () => {
  it('gives each client its CPU µs per event and share of one core over the run, and the target line the budget', () => {
    const out = run({
      'c:keep': [keep({ run_cpu_s: 0.4, run_wall_s: 0.5 })],
      'aiohttp:keep': [keep({ run_cpu_s: 1.5, run_wall_s: 1.6 })],
      'sb:keep': [keep({ run_cpu_s: 0.6, run_wall_s: 0.62, elu: 0.5, bottleneck: false })],
    });
    const table = keepTable(out.tables);
    const col = (name: string) => table.columns.indexOf(name);
    const rowOf = (label: string) => table.rows.find((r) => r[0] === label) ?? [];
    expect(rowOf('C reader')[col('client CPU µs/event')]).toBe('4.00');
    expect(rowOf('servebench')[col('client CPU µs/event')]).toBe('6.00');
    expect(rowOf('C reader')[col('client CPU ÷ one core')]).toBe('80%');
    expect(rowOf('aiohttp')[col('client CPU ÷ one core')]).toBe('94%');
    const line = out.targets.find((t) => t.startsWith('keeps up, events/s'));
    // 1e6 / (0.95 × 200,000) = 5.26 µs per event; the C reader's 4.00 is 76 % of it.
    expect(line).toContain('leaves 5.26 µs of CPU per event');
    expect(line).toContain('servebench spent 6.00, the minimal C reader 4.00 (76% of it), aiohttp 15.00');
    // 100,000 events in 0.5 s = 200,000/s: all of the offered rate.
    expect(line).toMatch(/: 100% \(200,000\/s;.* — met$/);
  });

  it('shows a dash where a run has no CPU figure', () => {
    const out = run({ 'c:keep': [keep({ run_cpu_s: NaN, run_wall_s: 0.5 })], 'sb:keep': [keep({ wall_s: 1 })] });
    const table = keepTable(out.tables);
    const c = table.rows.find((r) => r[0] === 'C reader') ?? [];
    expect(c[table.columns.indexOf('client CPU µs/event')]).toBe('—');
    expect(out.targets.find((t) => t.startsWith('keeps up, events/s'))).toMatch(/: 50% .* — missed$/);
  });
});
