// Smoke test of the record-lines bench: it runs (in --quick mode, whose figures mean nothing) on the
// built dist/ and reports each piece of the per-record work.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('record-lines bench', () => {
  it('times recordLine, processBatch and the main-thread settle of a batch result', () => {
    const env = { ...process.env };
    delete env.SB_BENCH_BASE;
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'record-lines', '--quick', '--json'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
        env,
      }),
    );
    const table = out.results['record-lines'].tables[0];
    expect(table.columns).toEqual(['what', 'this µs/record']);
    expect(table.rows.map((r: string[]) => r[0])).toEqual([
      'recordLine',
      'processBatch',
      'deserialize',
      'mainThread',
      'atClose',
      'result bytes/record (clone)',
    ]);
    for (const r of table.rows.slice(0, 4)) expect(Number(r[1])).toBeGreaterThan(0);
    // Nothing is left for close() since records read their metrics from the batch columns, so its
    // figure may round to 0.
    expect(Number(table.rows[4][1])).toBeGreaterThanOrEqual(0);
  });
});
