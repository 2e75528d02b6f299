// The scrapers' thread: probes the endpoints, scrapes them on their interval and parses each
// exposition here, so the run's JS thread (which issues requests and takes records) pays nothing
// per scrape. process.hrtime.bigint() is the same CLOCK_MONOTONIC clock in every thread.
// Protocol: workerData = ScrapeInit; posts one ScrapeStarted, then on {stop} one ScrapeStopped.
import { parentPort, workerData } from 'node:worker_threads';
import { EndpointScraper } from './scraper.js';
import type { ScrapeInit, ScrapeStarted, ScrapeStopped } from './worker-protocol.js';

const init = workerData as ScrapeInit;
const candidates = init.candidates.map((c) => new EndpointScraper(c.url, init.interval_ms, c.discovered));
const first = await Promise.all(candidates.map((s) => s.scrapeOnce()));
const kept: EndpointScraper[] = [];
const dropped: ScrapeStarted['dropped'] = [];
candidates.forEach((s, i) => {
  const r = first[i];
  if (r.values !== null && r.values.length > 0) kept.push(s);
  else dropped.push({ url: s.stats.url, discovered: s.discovered, why: r.values === null ? `unusable (${r.error})` : 'serves no samples' });
});
for (const s of kept) s.start();
parentPort!.postMessage({ kept: kept.map((s) => s.snapshot()), dropped } satisfies ScrapeStarted);
parentPort!.on('message', (m: { stop: boolean; finalScrape: boolean }) => {
  if (!m.stop) return;
  void Promise.all(kept.map((s) => s.stop(m.finalScrape))).then(() => {
    parentPort!.postMessage({ endpoints: kept.map((s) => s.snapshot()) } satisfies ScrapeStopped);
    parentPort!.close();
  });
});
