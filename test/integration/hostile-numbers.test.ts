// Issue 12 item 2: absurd usage counts (1e11, 1e300) never stop the summary: each out-of-range field
// is no value, with one warning naming it, and every export is written; `analyze` works on the
// records, and on records whose stored metric values are themselves out of the histograms' range.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants, spawnHostile } from '../helpers/hostile.js';

const FIELDS = ['usage.prompt_tokens', 'usage.completion_tokens', 'usage.total_tokens', 'usage.prompt_tokens_details.cached_tokens'];

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe.each(['native', 'undici'])('huge usage numbers on %s', (transport) => {
  it('are no value with one warning per field; the summary, CSV and histograms are written; analyze rebuilds them', async () => {
    const h = await spawnHostile('huge-usage');
    const dir = tmpDir();
    try {
      const r = await runCli([
        'profile',
        '--url',
        h.url,
        '--transport',
        transport,
        '--request-count',
        '6',
        '--concurrency',
        '2',
        '--use-server-token-count',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ]);
      const { recs, json } = expectRunInvariants(r, dir, {
        exports: ['profile_export.json', 'profile_export.csv', 'records.jsonl', 'histograms.json'],
      });
      expect(json.counts).toEqual({ issued: 6, succeeded: 6, errored: 0, cancelled: 0 });
      for (const f of FIELDS) expect(occurrences(r.stderr, `usage field '${f}'`), `${f} warned once`).toBe(1);
      for (const rec of recs) expect(rec.metrics.usage_completion_tokens, 'an out-of-range count has no value').toBeUndefined();
    } finally {
      await h.stop();
    }

    const out = tmpDir();
    const a = await runCli(['analyze', path.join(dir, 'records.jsonl'), '--artifact-dir', out]);
    expect(a.code, a.stderr).toBe(0);
    for (const f of ['profile_export.json', 'profile_export.csv', 'histograms.json'])
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);

    // Records of another writer may hold values no histogram can take: they are left out, with one warning.
    const lines = fs.readFileSync(path.join(dir, 'records.jsonl'), 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]);
    first.metrics.request_latency.value = 1e300;
    lines[0] = JSON.stringify(first);
    const edited = path.join(tmpDir(), 'records.jsonl');
    fs.writeFileSync(edited, lines.join('\n') + '\n');
    const out2 = tmpDir();
    const b = await runCli(['analyze', edited, '--artifact-dir', out2]);
    expect(b.code, b.stderr).toBe(0);
    expect(occurrences(b.stderr, "metric 'request_latency': 1 value(s)")).toBe(1);
    const summary = JSON.parse(fs.readFileSync(path.join(out2, 'profile_export.json'), 'utf8'));
    expect(JSON.stringify(summary)).toContain('request_latency');
  });
});
