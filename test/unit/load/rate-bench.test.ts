// Smoke test of the rate bench: it runs end to end in --quick mode (figures meaningless) against a
// spawned mock and reports its columns for every target rate.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('bench/rate.bench.js', () => {
  it('reports achieved rate and send lag at 1k, 5k and 20k req/s, and the pacer alone', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['bench/run.js', 'rate', '--quick', '--json'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 120_000,
      }),
    );
    const [transports, pacer] = out.results.rate.tables;
    expect(transports.columns).toEqual(expect.arrayContaining(['achieved req/s', 'lag p50 (µs)', 'lag p99 (µs)']));
    const targets = transports.rows.map((r: string[]) => r[2]);
    for (const t of ['1k req/s', '5k req/s', '20k req/s']) expect(targets).toContain(t);
    for (const r of transports.rows) {
      expect(Number(r[4])).toBeGreaterThan(0);
      expect(r[8]).toBe('0'); // no failed request
    }
    expect(pacer.rows.map((r: string[]) => r[0])).toEqual(['1k req/s', '5k req/s', '20k req/s', '100k req/s']);
  }, 180_000);
});
