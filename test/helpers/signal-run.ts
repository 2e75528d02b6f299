// Signals mid-run against the mock as its own process (signals-native.test.ts, signals-undici.test.ts): SIGTERM and SIGHUP act
// as Ctrl-C (stop issuing, drain in the grace period, write everything); a second signal cancels
// the requests in flight; a third still leaves the exports when they are done within 5 s; a fourth
// quits at once (130), and even then every finished record is on disk and `analyze` rebuilds.
// The runs have a 3,000,000 s duration and grace period (issue 12 item 3): only the signals end them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir, type CliResult } from './cli.js';
import { expectRunInvariants } from './hostile.js';

const lines = (file: string) =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length
    : 0;

/** Starts a long run, waits for `minRecords` finished records, sends `signals` `gapMs` apart. */
async function interrupted(
  mock: SpawnedMock,
  transport: string,
  signals: NodeJS.Signals[],
  gapMs: number,
  minRecords = 4,
): Promise<{ r: CliResult; dir: string; before: number }> {
  const dir = tmpDir();
  let pid = 0;
  const run = runCli(
    [
      'profile',
      '--url',
      mock.url,
      '--transport',
      transport,
      '--benchmark-duration',
      '3000000',
      '--benchmark-grace-period',
      '3000000',
      '--concurrency',
      '4',
      '--record-workers',
      '1',
      '--osl',
      '60',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ],
    { onSpawn: (p) => (pid = p), timeoutMs: 90_000 },
  );
  const records = path.join(dir, 'records.jsonl');
  const t0 = Date.now();
  while (Date.now() - t0 < 60_000 && lines(records) < minRecords) await new Promise((res) => setTimeout(res, 50));
  const before = lines(records);
  for (const [i, s] of signals.entries()) {
    if (i > 0) await new Promise((res) => setTimeout(res, gapMs));
    process.kill(pid, s);
  }
  return { r: await run, dir, before };
}

/** What every case keeps, even a quit: whole lines on disk, at least those seen before the signals, and analyze rebuilds them. */
async function expectRebuilds(dir: string, before: number): Promise<number> {
  const recs = readJsonl(path.join(dir, 'records.jsonl'));
  expect(recs.length).toBeGreaterThanOrEqual(before);
  const out = path.join(dir, 'rebuilt');
  const a = await runCli(['analyze', path.join(dir, 'records.jsonl'), '--artifact-dir', out]);
  expect(a.code, a.stderr).toBe(0);
  expect(readJson(path.join(out, 'profile_export.json')).counts.issued).toBe(recs.length);
  return recs.length;
}

/** The signal cases on one transport (one file per transport keeps each file short). */
export function signalSuite(transport: 'native' | 'undici'): void {
  let mock: SpawnedMock;
  beforeAll(async () => {
    // Each request streams 60 tokens 10 ms apart (~0.6 s): at any moment 4 are in flight.
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '10']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  describe(`signals on ${transport}`, () => {
    it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
      'one %s: no new requests, those in flight finish, everything is written',
      async (sig) => {
        const { r, dir } = await interrupted(mock, transport, [sig], 0);
        const { json } = expectRunInvariants(r, dir);
        expect(r.stderr).toMatch(new RegExp(`interrupted: no new requests; waiting up to 3000000 s .*\\(${sig};`));
        expect(r.stderr).not.toMatch(/Warning/);
        expect(json.counts.cancelled).toBe(0);
        expect(json.counts.succeeded).toBeGreaterThanOrEqual(4);
        expect(json.interrupted).toBe(true);
        expect(json.phases.profiling.stop_reason).toBe('interrupted');
        expect(json.credits.profiling).toMatchObject({ sent: json.counts.issued, completed: json.counts.issued, in_flight: 0 });
      },
    );

    it('two signals (SIGTERM, then SIGINT): the requests in flight are cancelled now, everything is written', async () => {
      const { r, dir } = await interrupted(mock, transport, ['SIGTERM', 'SIGINT'], 150);
      const { json } = expectRunInvariants(r, dir);
      expect(r.stderr).toMatch(/interrupted again: cancelling the requests in flight .*\(SIGINT;/);
      expect(json.counts.cancelled).toBeGreaterThanOrEqual(1);
      expect(json.counts.cancelled).toBeLessThanOrEqual(4);
      expect(json.credits.profiling.in_flight).toBe(0);
    });

    it('three quick SIGINTs: the exports are still written, and analyze rebuilds them from records.jsonl', async () => {
      const { r, dir, before } = await interrupted(mock, transport, ['SIGINT', 'SIGINT', 'SIGINT'], 20);
      expect(r.stderr).toMatch(/interrupted a third time \(SIGINT\): quitting within 5 s/);
      const { json } = expectRunInvariants(r, dir);
      expect(json.counts.cancelled).toBeGreaterThanOrEqual(1);
      expect(await expectRebuilds(dir, before)).toBe(json.counts.issued);
    });

    // The quit does not depend on the transport (records.jsonl is written the same way): one is enough.
    if (transport === 'undici')
      it('a fourth signal quits at once (130): every record seen on disk stays, whole, and analyze rebuilds', async () => {
        const { r, dir, before } = await interrupted(mock, transport, ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGINT'], 0);
        expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
        // Quit before the exports, or (on a fast host) just after them: never a crash.
        expect([0, 130]).toContain(r.code);
        await expectRebuilds(dir, before);
      });
  });
}
