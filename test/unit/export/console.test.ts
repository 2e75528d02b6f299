import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../src/export/console.js';
import type { MetricResult, MetricsSummary } from '../../../src/metrics/core/summary.js';
import { MetricFlag } from '../../../src/metrics/core/types.js';
import { sampleSummary } from './sample.js';

const ANSI = /\x1b\[/;
const lines = (s: string) => s.split('\n');
const width = (s: string) => Math.max(...lines(s).map((l) => l.length));

describe('renderConsole', () => {
  const summary = sampleSummary();
  const out = renderConsole(summary);

  it('shows the stat columns in order, in display units', () => {
    const header = lines(out).find((l) => l.includes('Metric') && l.includes('avg'))!;
    const cols = header
      .split(/[│|]/)
      .map((c) => c.trim())
      .filter(Boolean);
    // '±': the half-width of the mean's 95 % interval (the sample has two requests).
    expect(cols).toEqual(['Metric', 'avg', '±', 'min', 'max', 'p99', 'p90', 'p50', 'std']);
    const ttft = lines(out).find((l) => l.includes('Time to First Token (ms)'))!;
    expect(ttft).toContain('2,000.00');
    expect(ttft).toContain('1,000.00');
    expect(ttft).toContain('3,000.00');
  });

  it('puts single values in the avg column, counts without decimals', () => {
    const count = lines(out).find((l) => l.includes('Request Count (requests)'))!;
    expect(count.split('│').map((c) => c.trim())).toEqual(['', 'Request Count (requests)', '2', '', '', '', '', '', '', '', '']);
    expect(lines(out).find((l) => l.includes('Benchmark Duration (s)'))).toContain('4.00');
    expect(lines(out).find((l) => l.includes('Request Error Rate (%)'))).toContain('33.33');
  });

  it('orders groups (reasoning before the default LLM table) and hides group none', () => {
    expect(out.indexOf('LLM Metrics: Reasoning')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('LLM Metrics: Reasoning')).toBeLessThan(out.indexOf('Time to First Token'));
    expect(out).not.toContain('Total Output Sequence Length');
    expect(out).not.toContain('Minimum Request Timestamp');
    expect(out).not.toContain('Output Token Count');
  });

  it('orders effective and active groups first when they exist', () => {
    const extra = (tag: string, group: MetricResult['group']): MetricResult => ({
      tag,
      header: tag,
      unit: 'tokens/s',
      display: 'tokens/s',
      group,
      flags: 0,
      kind: 'single',
      stats: { avg: 1 },
    });
    const s: MetricsSummary = {
      ...summary,
      metrics: [...summary.metrics, extra('act', 'active'), extra('eff', 'effective'), extra('use', 'usage')],
    };
    const o = renderConsole(s);
    const pos = ['Effective Metrics', 'Active Metrics', 'LLM Metrics: Usage', 'LLM Metrics: Reasoning', 'Time to First Token'].map((t) =>
      o.indexOf(t),
    );
    expect(pos.every((p) => p >= 0)).toBe(true);
    expect([...pos].sort((a, b) => a - b)).toEqual(pos);
    // A group of single values only gets a Metric / value table.
    const effHeader = lines(o).find((l) => l.includes('Metric') && l.includes('value'))!;
    expect(
      effHeader
        .split('│')
        .map((c) => c.trim())
        .filter(Boolean),
    ).toEqual(['Metric', 'value']);
  });

  it('skips NO_CONSOLE metrics and empty groups', () => {
    const s: MetricsSummary = {
      ...summary,
      metrics: summary.metrics.map((m) => (m.group === 'reasoning' ? { ...m, flags: m.flags | MetricFlag.NO_CONSOLE } : m)),
    };
    expect(renderConsole(s)).not.toContain('Reasoning');
    expect(renderConsole({ ...summary, metrics: [] })).toBe('');
  });

  it('uses no colour by default and ANSI colour on request', () => {
    expect(ANSI.test(out)).toBe(false);
    expect(ANSI.test(renderConsole(summary, { color: true }))).toBe(true);
  });

  it('plain ASCII borders on request', () => {
    const a = renderConsole(summary, { ascii: true });
    expect(a).toMatch(/^\+-+\+/m);
    expect(/[│─┌┐└┘├┤┼┬┴]/.test(a)).toBe(false);
  });

  it('fits a narrow terminal by wrapping names, then dropping columns', () => {
    expect(width(out)).toBeGreaterThan(80);
    const at80 = renderConsole(summary, { width: 80 });
    expect(width(at80)).toBeLessThanOrEqual(80);
    const at50 = renderConsole(summary, { width: 50 });
    expect(width(at50)).toBeLessThanOrEqual(50);
    expect(at50).toMatch(/hidden to fit 50 columns/);
    expect(at50).toContain('2,000.00');
    // A wrapped name continues on the next line of the same row.
    const ls = lines(at50);
    const i = ls.findIndex((l) => l.includes('│ Output Token Throughput '));
    expect(ls[i + 1]).toContain('│ Per User (tokens/s/user)');
  });

  it('a wide terminal changes nothing', () => {
    expect(renderConsole(summary, { width: 500 })).toBe(out);
  });
});
