// Smoke test of the power bench: it runs end to end (--quick: figures meaningless) and reports
// the poller's CPU cost per interval.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('bench/power.bench.js', () => {
  it('reports thread CPU per second of run at 1, 10, 50 and 100 ms', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'power', '--quick', '--json'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }),
    );
    const table = out.results.power.tables[0];
    expect(table.columns).toEqual(expect.arrayContaining(['interval', 'GPUs', 'thread CPU-s/s', 'thread % core', 'drain % core']));
    expect(table.rows.map((r: string[]) => r[0])).toEqual(['1 ms', '10 ms', '50 ms', '100 ms', '1 ms', '10 ms', '50 ms', '100 ms']);
    for (const r of table.rows) {
      expect(Number(r[3])).toBeGreaterThan(0);
      expect(Number(r[2])).toBeGreaterThan(0); // ticks/s
    }
    expect(out.results.power.notes.join('\n')).toMatch(/at 50 ms with 8 GPUs: [\d.]+ % of a core/);
  }, 60_000);
});
