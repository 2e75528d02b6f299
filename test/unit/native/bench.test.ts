// Smoke test of `npm run bench`: the runner and the SSE bench run end to end
// (in --quick mode, whose figures mean nothing) and report their columns.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const runBench = (...args: string[]) =>
  execFileSync(process.execPath, ['bench/run.js', ...args], { cwd: root, encoding: 'utf8', stdio: 'pipe' });

describe('bench runner', () => {
  it('runs the SSE bench and reports MB/s and events/s for native and JS', () => {
    const out = JSON.parse(runBench('sse', '--quick', '--json'));
    const table = out.results.sse.tables[0];
    expect(table.columns).toEqual(expect.arrayContaining(['MB/s', 'events/s', 'speed-up vs JS']));
    const framers = new Set(table.rows.map((r: string[]) => r[1]));
    expect(framers).toContain('native (addon)');
    expect(framers).toContain('JS string framer');
    for (const row of table.rows) expect(Number(row[2])).toBeGreaterThan(0);
  });

  it('rejects an unknown benchmark name with exit code 2', () => {
    let status: number | null = null;
    try {
      runBench('no-such-bench');
    } catch (err) {
      status = (err as { status: number }).status;
    }
    expect(status).toBe(2);
  });
});
