// Server-metrics scraper cost: CPU per scrape of a 2,000-line vLLM-shaped exposition, on the
// scrapers' thread (a run scrapes on its own worker thread, so none of it lands on the thread that
// sends). Two figures: the parse into the series table alone (SeriesTable.addText), and a whole
// scrape (EndpointScraper.scrapeOnce: undici GET + parse) against an in-process HTTP server (whose write of a prebuilt body is billed
// too: an upper bound). Component-harness figures; medians of interleaved repetitions.
import http from 'node:http';
import { importDist, median } from './lib.js';

export const description = 'server-metrics scraper: CPU per scrape of a 2,000-line vLLM exposition';

/** A vLLM-shaped exposition of exactly `target` lines: per-engine gauges, counters and histograms. */
export function vllmExposition(target = 2000) {
  const lines = [];
  const TTFT = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
  for (let engine = 0; lines.length < target; engine++) {
    const l = `engine="${engine}",model_name="meta-llama/Llama-3.1-8B-Instruct"`;
    const head = (n, t) => lines.push(`# HELP ${n} ${n}.`, `# TYPE ${n} ${t}`);
    head('vllm:num_requests_running', 'gauge');
    lines.push(`vllm:num_requests_running{${l}} ${engine % 9}.0`);
    head('vllm:num_requests_waiting', 'gauge');
    lines.push(`vllm:num_requests_waiting{${l}} 0.0`);
    head('vllm:kv_cache_usage_perc', 'gauge');
    lines.push(`vllm:kv_cache_usage_perc{${l}} 0.${engine % 10}25`);
    for (const c of ['prompt_tokens', 'generation_tokens', 'num_preemptions', 'prefix_cache_queries', 'prefix_cache_hits']) {
      head(`vllm:${c}_total`, 'counter');
      lines.push(`vllm:${c}_total{${l}} ${1e6 + engine * 12345}.0`);
    }
    for (const h of [
      'time_to_first_token_seconds',
      'inter_token_latency_seconds',
      'e2e_request_latency_seconds',
      'request_queue_time_seconds',
    ]) {
      head(`vllm:${h}`, 'histogram');
      TTFT.forEach((b, i) => lines.push(`vllm:${h}_bucket{${l},le="${b}"} ${i * 100}.0`));
      lines.push(`vllm:${h}_bucket{${l},le="+Inf"} 2000.0`, `vllm:${h}_count{${l}} 2000.0`, `vllm:${h}_sum{${l}} 123.456`);
    }
  }
  return lines.slice(0, target).join('\n') + '\n';
}

function cpuUs(fn, n) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

async function cpuUsAsync(fn, n) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

export async function run(ctx) {
  const { quick, log } = ctx;
  const series = await importDist('server-metrics/series.js');
  const scraper = await importDist('server-metrics/scraper.js');
  if (!series || !scraper) throw new Error('dist/ is not built (npx tsc -p tsconfig.build.json)');
  const text = vllmExposition(2000);
  const body = Buffer.from(text);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/metrics`;
  const reps = quick ? 2 : 7;
  const n = quick ? 5 : 40;
  const parse = [];
  const whole = [];
  try {
    for (let rep = 0; rep < reps; rep++) {
      log(`  server-metrics: rep ${rep + 1}/${reps}, ${n} scrapes each`);
      const table = new series.SeriesTable();
      parse.push(cpuUs((i) => table.addText(BigInt(i), text), n));
      const sc = new scraper.EndpointScraper(url, 333, false);
      whole.push(await cpuUsAsync(() => sc.scrapeOnce(), n));
      if (sc.stats.failed_scrapes > 0) throw new Error(`scrape failed: ${sc.stats.last_error}`);
    }
  } finally {
    server.close();
  }
  const p = median(parse);
  const w = median(whole);
  const pct = (us) => ((100 * us) / 333_000).toFixed(3);
  return {
    tables: [
      {
        title: `Server-metrics scraper CPU per scrape, 2,000-line vLLM exposition (${body.length} bytes; median of ${reps} x ${n})`,
        columns: ['what', 'CPU µs/scrape', '% of a core at 333 ms'],
        rows: [
          ['parse into the series table', p.toFixed(0), pct(p)],
          ['whole scrape: GET + parse (+ in-process server)', w.toFixed(0), pct(w)],
        ],
      },
    ],
    notes: [
      "component-harness figures (process.cpuUsage over N scrapes, here on one thread); in a run this is the scrapers' worker thread's cost, not the sending thread's",
    ],
  };
}
