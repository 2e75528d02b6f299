// report.html in a real browser (Debian's chromium through playwright-core): the report a mock run
// writes, a 3-point sweep's, and a 2-run overlay's each load from file:// with no console error and
// no network request, and draw every expected chart, non-empty, with the right number of series.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, visitReport, type PageVisit } from '../helpers/browser.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';

const DIST = ['time_to_first_token', 'inter_token_latency', 'request_latency', 'output_token_throughput_per_user'].flatMap((t) => [
  `cdf-${t}`,
  `hist-${t}`,
]);

function expectCharts(v: PageVisit, expected: Record<string, number>): void {
  expect(v.consoleErrors).toEqual([]);
  expect(v.requests).toEqual([]);
  expect(Object.fromEntries(v.charts.map((c) => [c.id, c.series]))).toEqual(expected);
  for (const c of v.charts) {
    expect(c.declared, c.id).toBe(c.series);
    expect(c.points, `${c.id} has data`).toBeGreaterThan(0);
    expect(c.painted, `${c.id} is painted`).toBeGreaterThan(1000);
  }
  expect(fs.statSync(v.screenshot).size).toBeGreaterThan(10_000);
}

describe('report.html in chromium', () => {
  const root = tmpDir('servebench-report-');
  const run = path.join(root, 'run');
  const sweep = path.join(root, 'sweep');
  const repeated = path.join(root, 'repeated');
  let browser: Browser;
  let mock: SpawnedMock;
  const common = ['--mock-ttft-ms', '5', '--mock-itl-ms', '2', '--isl', '16', '--osl', '8', '--ui', 'none'];

  beforeAll(async () => {
    // The single run's server fails every 9th request, and the run cancels a tenth on purpose,
    // so the per-request plots have errors and cancellations to show.
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '2', '--fail-every', '9']);
    const single = ['--url', mock.url, '--isl', '16', '--osl', '8', '--ui', 'none', '--request-cancellation-rate', '0.1'];
    const [a, b, c] = await Promise.all([
      runCli(
        [
          'profile',
          ...single,
          '--request-cancellation-delay',
          '0.004',
          '--concurrency',
          '4',
          '--request-count',
          '60',
          '--artifact-dir',
          run,
        ],
        { timeoutMs: 90_000 },
      ),
      runCli(['profile', ...common, '--concurrency', '1,2,4', '--request-count', '12', '--artifact-dir', sweep], { timeoutMs: 90_000 }),
      runCli(['profile', ...common, '--num-profile-runs', '2', '--request-count', '10', '--artifact-dir', repeated], { timeoutMs: 90_000 }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(c.code, c.stderr).toBe(0);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await mock?.stop();
  });

  it('a run: its profile wrote report.html; `report` rebuilds the same page from the exports alone', async () => {
    const file = path.join(run, 'report.html');
    const rebuilt = path.join(root, 'rebuilt.html');
    const r = await runCli(['report', run, '-o', rebuilt]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(rebuilt, 'utf8')).toBe(fs.readFileSync(file, 'utf8'));
    const v = await visitReport(browser, file, 'run');
    expect(v.kind).toBe('run');
    expectCharts(v, {
      ...Object.fromEntries(DIST.map((id) => [id, 1])),
      'scatter-ttft': 3,
      'scatter-latency': 3,
      throughput: 2,
      concurrency: 2,
    });
    // Errors and cancellations are plotted (succeeded, errored, cancelled series each have points), and said in the header.
    for (const id of ['scatter-ttft', 'scatter-latency'])
      expect(
        v.charts.find((c) => c.id === id)!.seriesPoints.every((n) => n > 0),
        id,
      ).toBe(true);
    const counts = readJson(path.join(run, 'profile_export.json')).counts;
    expect(counts.errored).toBeGreaterThan(0);
    expect(counts.cancelled).toBeGreaterThan(0);
    const html = fs.readFileSync(file, 'utf8');
    expect(html).toContain(`${counts.errored} of ${counts.issued} requests errored and ${counts.cancelled} were cancelled`);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet[^>]+href=|https?:\/\/cdn/i);
    expect(html).toContain('servebench 0.1.0');
  });

  it('a 3-point sweep: the Pareto plots and the points overlaid', async () => {
    const v = await visitReport(browser, path.join(sweep, 'report.html'), 'sweep');
    expect(v.kind).toBe('sweep');
    expectCharts(v, {
      'pareto-ttft': 1,
      'pareto-itl': 1,
      'pareto-per-user': 1,
      ...Object.fromEntries(DIST.map((id) => [id, 3])),
    });
    for (const p of fs.readdirSync(sweep).filter((d) => d.startsWith('point-')))
      expect(fs.existsSync(path.join(sweep, p, 'report.html'))).toBe(true);
  });

  it('a 2-run overlay: one series per run (and one for every run’s failures)', async () => {
    const out = path.join(root, 'overlay.html');
    const point = path.join(
      sweep,
      fs.readdirSync(sweep).find((d) => d.startsWith('point-03'))!,
    );
    const r = await runCli(['report', run, point, '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const v = await visitReport(browser, out, 'overlay');
    expect(v.kind).toBe('overlay');
    expectCharts(v, {
      ...Object.fromEntries(DIST.map((id) => [id, 2])),
      'scatter-ttft': 3,
      'scatter-latency': 3,
      throughput: 4,
      concurrency: 4,
    });
  });

  it('repeated runs: each run_<i> has its report, and the folder the runs overlaid', async () => {
    for (const r of ['run_1', 'run_2']) expect(fs.existsSync(path.join(repeated, r, 'report.html'))).toBe(true);
    const v = await visitReport(browser, path.join(repeated, 'report.html'), 'repeated');
    expect(v.kind).toBe('overlay');
    expect(v.consoleErrors).toEqual([]);
    expect(v.requests).toEqual([]);
    expect(v.charts.find((c) => c.id === 'cdf-time_to_first_token')!.series).toBe(2);
  });

  it('compare --html: the same overlay, with the comparison table on top', async () => {
    const out = path.join(root, 'compare.html');
    const point = path.join(
      sweep,
      fs.readdirSync(sweep).find((d) => d.startsWith('point-01'))!,
    );
    const r = await runCli(['compare', run, point, '--metrics', 'ttft_p50,itl_p50', '--html', out]);
    expect(r.code, r.stderr).toBe(0);
    const v = await visitReport(browser, out, 'compare');
    expect(v.kind).toBe('overlay');
    expect(v.charts).toHaveLength(DIST.length + 4);
    expectCharts(
      v,
      Object.fromEntries(
        v.charts.map((c) => [c.id, c.id.startsWith('scatter') ? 3 : c.id.startsWith('cdf') || c.id.startsWith('hist') ? 2 : 4]),
      ),
    );
    const html = fs.readFileSync(out, 'utf8');
    expect(html).toContain('Comparison (first run = baseline)');
    expect(html).toMatch(/<td[^>]*>Time to First Token p50 \(ms\) ↓<\/td>/);
    expect(html).toMatch(/Config keys that differ/);
  });

  it('bad input: a folder without exports, a corrupt export: one line, exit 2', async () => {
    const empty = tmpDir();
    const corrupt = tmpDir();
    fs.writeFileSync(path.join(corrupt, 'profile_export.json'), '{ not json');
    const [a, b] = await Promise.all([runCli(['report', empty]), runCli(['report', run, corrupt, '-o', path.join(root, 'x.html')])]);
    for (const [res, re] of [
      [a, /no profile_export\.json/],
      [b, /profile_export\.json: not valid JSON/],
    ] as const) {
      expect(res.code).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(re);
    }
  });
});
