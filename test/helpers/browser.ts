// Opens a report.html from file:// in Debian's chromium (playwright-core drives it; no browser
// download) and tells what happened: console errors, every network request, the charts drawn
// (from window.__servebenchReport and each canvas's painted pixels), and a screenshot.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('.vitest-tmp', 'report-screenshots');

export interface ChartSeen {
  id: string;
  /** Series uPlot drew (the x column excluded). */
  series: number;
  /** Non-null values in the chart's data. */
  points: number;
  /** The same, per series. */
  seriesPoints: number[];
  /** Canvas pixels that are not transparent. */
  painted: number;
  /** Series the page's figure says it has (data-series). */
  declared: number;
}

export interface PageVisit {
  consoleErrors: string[];
  /** Every request other than the report file itself. */
  requests: string[];
  charts: ChartSeen[];
  kind: string;
  screenshot: string;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-background-networking'] });
}

export async function visitReport(browser: Browser, file: string, shotName: string): Promise<PageVisit> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const url = pathToFileURL(path.resolve(file)).href;
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  // Every request the page makes goes through here: the report itself is let through, the rest counted and refused.
  await context.route('**/*', async (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(url);
  await page.waitForSelector('body[data-rendered="true"]', { timeout: 20_000 });
  const seen = await page.evaluate(() => {
    const w = window as unknown as {
      __servebenchReport: { charts: { id: string; series: number; points: number; seriesPoints: number[] }[]; kind: string };
    };
    const charts = w.__servebenchReport.charts.map((c) => {
      const fig = document.querySelector(`[data-chart="${c.id}"]`)!;
      const canvas = fig.querySelector('canvas')!;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
      return { ...c, painted, declared: Number(fig.getAttribute('data-series')) };
    });
    return { charts, kind: w.__servebenchReport.kind };
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const screenshot = path.join(ARTIFACTS, `${shotName}.png`);
  await page.screenshot({ path: screenshot, fullPage: true });
  await context.close();
  return { consoleErrors, requests: [...new Set(requests)], charts: seen.charts, kind: seen.kind, screenshot };
}
