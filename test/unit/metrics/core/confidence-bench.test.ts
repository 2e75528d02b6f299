// Smoke test of the confidence bench (--quick: figures meaningless): it runs and reports both tables.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('confidence bench', () => {
  it('reports rank cost per sample size and the per-metric cost of intervals', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'confidence', '--quick', '--json'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }),
    );
    const [ranks, metric] = out.results.confidence.tables;
    expect(ranks.rows.map((r: string[]) => r[0])).toEqual(['1.00 k', '100 k']);
    expect(metric.rows).toHaveLength(2);
    expect(metric.rows[1][0]).toMatch(/intervals/);
  });
});
