import { describe, expect, it } from 'vitest';
import { csvField, csvNumber, renderCsv } from '../../../src/export/csv.js';
import type { MetricsSummary } from '../../../src/metrics/core/summary.js';
import { sampleSummary, T0 } from './sample.js';

/** A minimal RFC 4180 reader, to check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

describe('renderCsv', () => {
  const text = renderCsv(sampleSummary());
  const rows = parseCsv(text);

  it('has a distributions section, a blank line, single values, a blank line, then time-weighted values', () => {
    expect(rows[0]).toEqual(['Metric', 'avg', 'min', 'max', 'p1', 'p5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'std']);
    const blanks = rows.flatMap((r, i) => (r.length === 1 && r[0] === '' ? [i] : []));
    expect(blanks).toHaveLength(2);
    const [single, timeWeighted] = blanks;
    expect(rows[single + 1]).toEqual(['Metric', 'Value']);
    expect(rows.slice(1, single).every((r) => r.length === 14)).toBe(true);
    expect(rows.slice(single + 2, timeWeighted).every((r) => r.length === 2)).toBe(true);
    expect(rows[timeWeighted + 1]).toEqual(['Metric', 'avg', 'p50', 'p90', 'p95', 'p99', 'max']);
    expect(rows.slice(timeWeighted + 2).every((r) => r.length === 7)).toBe(true);
  });

  it('writes time-weighted rows with their percentiles', () => {
    // Both successes start at T0 and end 2 s and 4 s later: 2 in flight for 2 s, then 1 for 2 s.
    expect(rows.find((r) => r[0] === 'Effective Concurrency (requests)')).toEqual([
      'Effective Concurrency (requests)',
      '1.5',
      '1',
      '2',
      '2',
      '2',
      '2',
    ]);
  });

  it('names metrics with display units and writes display values', () => {
    const ttft = rows.find((r) => r[0] === 'Time to First Token (ms)')!;
    expect(ttft.slice(1, 4)).toEqual(['2000', '1000', '3000']);
    expect(rows.find((r) => r[0] === 'Request Count (requests)')).toEqual(['Request Count (requests)', '2']);
    expect(rows.find((r) => r[0] === 'Request Error Rate (%)')).toEqual(['Request Error Rate (%)', '33.3333']);
    expect(rows.find((r) => r[0] === 'Minimum Request Timestamp (ns)')).toEqual(['Minimum Request Timestamp (ns)', T0.toString()]);
  });

  it('quotes headers that need it', () => {
    const s: MetricsSummary = {
      counts: { issued: 0, succeeded: 0, errored: 0, cancelled: 0 },
      metrics: [
        {
          tag: 'x',
          header: 'Odd, "quoted"\nname',
          unit: 'tokens',
          display: 'tokens',
          group: 'default',
          flags: 0,
          kind: 'single',
          stats: { avg: 1.5 },
        },
      ],
    };
    const out = renderCsv(s);
    expect(out).toBe('Metric,Value\n"Odd, ""quoted""\nname (tokens)",1.5\n');
    expect(parseCsv(out)[1]).toEqual(['Odd, "quoted"\nname (tokens)', '1.5']);
  });

  it('field and number helpers', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvNumber(3)).toBe('3');
    expect(csvNumber(1 / 3)).toBe('0.3333');
    expect(csvNumber(2n ** 70n)).toBe('1180591620717411303424');
  });
});
