import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SeriesTable } from '../../../src/server-metrics/series.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('SeriesTable', () => {
  it('reads a known series by its line text, and still parses what changed', () => {
    const t = new SeriesTable();
    t.addText(0n, '# HELP g A gauge.\n# TYPE g gauge\ng{a="1"} 1\ng{a="2"} 2\n');
    // Same lines, new values; a new series; a known prefix with a bad value; a value with a timestamp.
    const s = t.addText(
      1n,
      '# HELP g A gauge.\n# TYPE g gauge\ng{a="1"} 5\ng{a="2"} 2e1\ng{a="3"} 7\ng{a="1"} oops\ng{a="2"} 3 1700000000000\n',
    );
    expect(t.meta.map((m) => [m.key, m.family, m.type])).toEqual([
      ['g{a="1"}', 'g', 'gauge'],
      ['g{a="2"}', 'g', 'gauge'],
      ['g{a="3"}', 'g', 'gauge'],
    ]);
    expect([...s.values!]).toEqual([5, 3, 7]);
    expect(s.malformed).toBe(1);
    // A second # TYPE of one family in one scrape is malformed, every scrape.
    expect(t.addText(2n, '# TYPE g gauge\n# TYPE g counter\ng{a="1"} 1\n').malformed).toBe(1);
    expect(t.addText(3n, '# TYPE g gauge\n# TYPE g counter\ng{a="1"} 1\n').malformed).toBe(1);
  });
});

describe('bench/server-metrics.bench.js', () => {
  it('reports CPU per scrape of a 2,000-line vLLM exposition', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'server-metrics', '--quick', '--json'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      }),
    );
    const table = out.results['server-metrics'].tables[0];
    expect(table.title).toMatch(/2,000-line vLLM exposition/);
    expect(table.rows.map((r: string[]) => r[0])).toEqual([
      'parse into the series table',
      'whole scrape: GET + parse (+ in-process server)',
    ]);
    for (const r of table.rows) expect(Number(r[1])).toBeGreaterThan(0);
  }, 60_000);
});
