// Smoke test of the harness benchmark's HTTPS section (bench/https.js) in its tiniest mode
// (`node bench/harness.js --tiny`: 8 streams, 16- and 32-request runs): it makes its certificates,
// starts the fast mock with and without TLS, runs `servebench profile` per client and prints one row
// per client with measured figures and the two target lines. Figures are not asserted, only that
// they are measured (a number, not "—") and that no run errored.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('bench:harness HTTPS section', () => {
  it('runs --tiny and prints the native plain HTTP, native HTTPS and undici HTTPS rows and the targets', async () => {
    const { stdout } = await run(process.execPath, ['--expose-gc', 'bench/harness.js', '--tiny'], { cwd: ROOT, timeout: 170_000 });
    expect(stdout).toContain('HTTPS: servebench profile');
    for (const label of ['native, plain HTTP', 'native, HTTPS', 'undici, HTTPS']) {
      const row = stdout.split('\n').find((l) => l.startsWith(`${label} `));
      expect(row, label).toBeDefined();
      expect(row).not.toMatch(/error/); // a failed run is named in its row
      // total µs/event, events/s and both stamp quantiles are figures
      expect(row).toMatch(/^[^\d]+ +-?[\d.,]+ +-?[\d.,]+ +-?[\d.,]+ +(-?[\d.,]+×|—) +[\d,]+ +[\d.]+ \/ [\d.]+ +\d+%$/);
    }
    expect(stdout).toMatch(/native HTTPS ≤ 1\.5× native plain HTTP CPU per event: /);
    expect(stdout).toMatch(/undici HTTPS ≥ 2× native HTTPS CPU per event: /);
  }, 180_000);
});
