// --endpoint-type template against a tiny server that is not OpenAI-shaped (its own process),
// configured only by flags: the same TTFT and ITL as the chat adapter on the same timing, on both
// transports, with an array path (decoded natively) and a flat one (decoded by the adapter).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const SERVER = fileURLToPath(new URL('../helpers/template-server.mjs', import.meta.url));
const TEMPLATE = '{"input": {"text": "{{prompt}}"}, "params": {"n": {{max_tokens}}, "stream": {{stream}}}, "model": "{{model}}"}';

let child: ChildProcess;
let url: string;
let templateFile: string;

beforeAll(async () => {
  child = spawn(process.execPath, [SERVER, '--ttft-ms', '60', '--itl-ms', '20'], { stdio: ['pipe', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error('template server exited')));
  });
  templateFile = path.join(tmpDir(), 'body.json');
  fs.writeFileSync(templateFile, TEMPLATE);
});

afterAll(() => {
  child?.stdin?.end();
  child?.kill();
});

type Metrics = Record<string, { avg: number; p50: number }>;

async function profile(extra: string[]): Promise<{ metrics: Metrics; counts: Record<string, number> }> {
  const dir = tmpDir();
  const r = await runCli([
    'profile',
    ...['--url', url, '--osl', '6', '--concurrency', '2', '--request-count', '8', '--isl', '16'],
    ...['--artifact-dir', dir, '--ui', 'none', '--no-server-metrics', '--export-level', 'summary', '--use-server-token-count'],
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const j = readJson(path.join(dir, 'profile_export.json'));
  return { metrics: j.metrics, counts: j.counts };
}

const template = (endpoint: string, content: string) => [
  ...['--endpoint-type', 'template', '--endpoint', endpoint, '--template-file', templateFile],
  ...['--response-content-path', content, '--response-usage-path', 'meta.usage'],
];

/**
 * Same server timing, measured in two runs: the medians within `pct` or `ms`. The bounds cover the
 * shared 2-core test host at a load average of ~20 (TTFT then moves by up to ~15 ms between runs);
 * a decode that lost or mis-stamped the tokens would be off by far more (no TTFT, or ITL ~0).
 */
function near(a: number, b: number, what: string, pct: number, ms: number): void {
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThan(Math.max(ms, pct * b));
}

describe('--endpoint-type template', () => {
  it.each(['native', 'undici'])(
    'matches the chat adapter on the %s transport (array and flat paths)',
    async (transport) => {
      const chat = await profile(['--transport', transport]);
      const arr = await profile([...template('/gen', 'outputs[*].text'), '--transport', transport]);
      const flat = await profile([...template('/flat', 'token.text'), '--transport', transport]);
      for (const t of [arr, flat]) {
        expect(t.counts.succeeded).toBe(8);
        near(t.metrics.time_to_first_token.p50, chat.metrics.time_to_first_token.p50, 'TTFT', 0.25, 5);
        near(t.metrics.inter_token_latency.p50, chat.metrics.inter_token_latency.p50, 'ITL', 0.15, 3);
        expect(t.metrics.output_sequence_length.avg).toBe(chat.metrics.output_sequence_length.avg);
      }
      // The server's ITL (20 ms), counted with its own token counts.
      expect(chat.metrics.inter_token_latency.p50).toBeGreaterThan(19);
    },
    120_000,
  );

  it('non-streaming: latency and output length from the body, no streaming metrics', async () => {
    const r = await profile([...template('/gen', 'outputs[*].text'), '--no-streaming']);
    expect(r.counts.succeeded).toBe(8);
    expect(r.metrics.time_to_first_token).toBeUndefined();
    expect(r.metrics.output_sequence_length.avg).toBe(6);
    expect(r.metrics.request_latency.avg).toBeGreaterThan(60 + 5 * 20 - 1);
  });

  it('an unknown placeholder is one line naming --template-file, exit 2', async () => {
    const bad = path.join(tmpDir(), 'bad.json');
    fs.writeFileSync(bad, '{"text": "{{promptt}}"}');
    const r = await runCli(['profile', '--url', url, '--endpoint-type', 'template', '--template-file', bad, '--ui', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--template-file: unknown placeholder {{promptt}}');
  });
});
