// Smoke test of the timeline bench: it runs (in --quick mode, whose figures mean nothing) and reports
// native and JS rows with the speed-up column.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('timeline bench', () => {
  it('times native and JS sweeps on the same run and reports the speed-up', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'timeline', '--quick', '--json'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }),
    );
    const table = out.results.timeline.tables[0];
    expect(table.columns).toEqual(['requests', 'implementation', 'median', 'min', 'spread', 'requests/s', 'speed-up vs JS']);
    const names = table.rows.map((r: string[]) => r[1]);
    expect(names).toEqual(['native (addon)', 'plain JS sweep', 'native (addon)']);
    // Both implementations computed the same averages on the shared run.
    expect(out.results.timeline.notes[0]).toMatch(/agree to (0\.0e\+0|\d\.\de-1\d)/);
  });
});
