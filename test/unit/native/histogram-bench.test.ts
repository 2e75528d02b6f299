// Smoke test of the histogram bench (--quick: figures meaningless): it runs, checks its own answers
// against a sort, and reports ns/value for the native batch and the JS comparisons.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('histogram bench', () => {
  it('reports record cost per value, the end-to-end speed-up over a JS sort, and query cost', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'histogram', '--quick', '--json'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }),
    );
    const [record, e2e, queries] = out.results.histogram.tables;
    expect(record.columns).toEqual(expect.arrayContaining(['ns/value', 'vs native batch']));
    const labels = record.rows.map((r: string[]) => r[0]);
    expect(labels).toContain('native recordValues(Float64Array)');
    expect(labels).toContain('hdr-histogram-js recordValue loop');
    for (const row of record.rows) expect(Number(row[1])).toBeGreaterThan(0);
    expect(e2e.rows.map((r: string[]) => r[0])).toEqual(['native: record batch + 9 percentiles', 'JS: sort a copy + nearest rank']);
    expect(queries.rows).toHaveLength(2);
  });
});
