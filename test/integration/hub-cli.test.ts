// `servebench profile` against a local Hub process (HF_ENDPOINT) and the mock: the --model's tokenizer
// downloaded and counted with, the cache reused offline with the Hub stopped, a download killed halfway
// then run again, the token in no artifact or line, and each bad input as one line, exit 2, before any
// request reaches the server.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { byteLevelTokenizerJson, cl100kTokenizerJson, hubEnv, repoDir, startLocalHub, type LocalHub } from '../helpers/hub.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';

const TOKEN = 'hf_cliHubTestToken0123456789abcdef';
const bytesTok = byteLevelTokenizerJson();
const cl100k = cl100kTokenizerJson();
const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

let hub: LocalHub;
let mock: SpawnedMock;
let recorded: string;

const repos = () => [
  {
    type: 'model' as const,
    name: 'acme/bytes',
    revisions: [
      { name: 'main', dir: repoDir({ 'tokenizer.json': bytesTok, 'tokenizer_config.json': '{}' }) },
      { name: 'v2', dir: repoDir({ 'tokenizer.json': cl100k }) },
    ],
  },
  {
    type: 'model' as const,
    name: 'acme/gated',
    gated: true,
    access: [TOKEN],
    revisions: [{ name: 'main', dir: repoDir({ 'tokenizer.json': bytesTok }) }],
  },
  {
    type: 'model' as const,
    name: 'acme/spm',
    revisions: [{ name: 'main', dir: repoDir({ 'tokenizer.model': 'sentencepiece', 'config.json': '{}' }) }],
  },
  { type: 'model' as const, name: 'acme/big', revisions: [{ name: 'main', dir: repoDir({ 'tokenizer.json': cl100k }) }] },
  { type: 'model' as const, name: 'acme/big2', revisions: [{ name: 'main', dir: repoDir({ 'tokenizer.json': cl100k }) }] },
];

beforeAll(async () => {
  recorded = path.join(tmpDir(), 'requests.jsonl');
  [hub, mock] = await Promise.all([
    startLocalHub({
      repos: repos(),
      tokens: [TOKEN],
      stall: [
        { repo: 'acme/big', path: 'tokenizer.json', afterBytes: 300_000 },
        { repo: 'acme/big2', path: 'tokenizer.json', afterBytes: 300_000 },
      ],
    }),
    spawnMock(['--record-requests', recorded]),
  ]);
});
afterAll(async () => {
  await Promise.all([hub?.stop(), mock?.stop()]);
});

function profile(args: string[], env: NodeJS.ProcessEnv, onSpawn?: (pid: number) => void) {
  const dir = tmpDir();
  const run = runCli(
    [
      'profile',
      '--url',
      mock.url,
      '--request-count',
      '4',
      '--concurrency',
      '2',
      '--isl',
      '32',
      '--osl',
      '4',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
      ...args,
    ],
    { env, onSpawn, timeoutMs: 120_000 },
  );
  return run.then((r) => ({ r, dir }));
}

function mockRequests(): number {
  return fs.existsSync(recorded) ? lines(fs.readFileSync(recorded, 'utf8')).length : 0;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((e) => fs.statSync(path.join(dir, e)).isFile());
}

/** The partial file of a download the Hub stalled after 300,000 bytes, once those bytes are on disk. */
async function stalledPartial(blobs: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const partial = fs.existsSync(blobs) ? fs.readdirSync(blobs).find((f) => f.endsWith('.incomplete')) : undefined;
    if (partial !== undefined && fs.statSync(path.join(blobs, partial)).size >= 300_000) return partial;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no partial download in ${blobs}`);
}

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe("the --model's tokenizer from the Hub", () => {
  it('is downloaded and counted with (no --tokenizer), the token in no artifact or line; a second run offline with the Hub stopped uses the cache', async () => {
    const own = await startLocalHub({ repos: repos(), tokens: [TOKEN] });
    const home = tmpDir();
    let r;
    let dir;
    try {
      ({ r, dir } = await profile(['--model', 'acme/bytes', '--export-level', 'records'], hubEnv(own, home, { HF_TOKEN: TOKEN })));
    } finally {
      await own.stop();
    }
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/approximate|cl100k/);
    expect(readJson(path.join(dir, 'profile_export.json')).tokenizer).toBe('acme/bytes');
    // Byte-level counts: 32-byte prompts, and the mock's one-cl100k-token words are several bytes each.
    const records = readJsonl(path.join(dir, 'records.jsonl'));
    expect(records).toHaveLength(4);
    for (const rec of records) {
      expect(rec.metrics.input_sequence_length.value).toBe(32);
      expect(rec.metrics.output_sequence_length.value).toBeGreaterThan(4);
    }
    const cache = path.join(home, 'hub', 'models--acme--bytes');
    const commit = fs.readFileSync(path.join(cache, 'refs', 'main'), 'utf8');
    expect(fs.readlinkSync(path.join(cache, 'snapshots', commit, 'tokenizer.json'))).toMatch(/^\.\.\/\.\.\/blobs\/[0-9a-f]{40}$/);
    expect(fs.existsSync(path.join(cache, 'snapshots', commit, 'tokenizer_config.json'))).toBe(true);
    for (const f of filesUnder(dir)) expect(fs.readFileSync(path.join(dir, f), 'utf8'), f).not.toContain(TOKEN);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);

    const offline = await profile(['--model', 'acme/bytes'], hubEnv(null, home, { HF_HUB_OFFLINE: '1', HF_ENDPOINT: own.endpoint }));
    expect(offline.r.code, offline.r.stderr).toBe(0);
    expect(readJson(path.join(offline.dir, 'profile_export.json')).tokenizer).toBe('acme/bytes');
  });

  it('a download killed halfway leaves nothing taken for complete; the next run downloads it whole', async () => {
    const home = tmpDir();
    const env = hubEnv(hub, home);
    const blobs = path.join(home, 'hub', 'models--acme--big', 'blobs');
    let pid = 0;
    const first = profile(['--model', 'acme/big'], env, (p) => (pid = p));
    const partial = await stalledPartial(blobs);
    process.kill(pid, 'SIGKILL');
    expect((await first).r.signal).toBe('SIGKILL');
    const repo = path.join(home, 'hub', 'models--acme--big');
    expect(fs.existsSync(path.join(repo, 'snapshots'))).toBe(false);
    expect(fs.existsSync(path.join(repo, 'refs'))).toBe(false);
    expect(fs.readdirSync(blobs)).toEqual([partial]);

    const again = await profile(['--model', 'acme/big'], env);
    expect(again.r.code, again.r.stderr).toBe(0);
    const sha = createHash('sha256').update(cl100k).digest('hex');
    expect(fs.readdirSync(blobs)).toEqual([sha]);
    expect(
      createHash('sha256')
        .update(fs.readFileSync(path.join(blobs, sha)))
        .digest('hex'),
    ).toBe(sha);
    expect(readJson(path.join(again.dir, 'profile_export.json')).tokenizer).toBe('acme/big');
  });

  it('Ctrl-C during a download ends it: exit 130, nothing partial kept, no request sent', async () => {
    const home = tmpDir();
    const blobs = path.join(home, 'hub', 'models--acme--big2', 'blobs');
    const before = mockRequests();
    let pid = 0;
    const run = profile(['--model', 'acme/big2'], hubEnv(hub, home), (p) => (pid = p));
    await stalledPartial(blobs);
    process.kill(pid, 'SIGINT');
    const { r } = await run;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/the download of tokenizer\.json of model repo acme\/big2 was interrupted/);
    expect(fs.readdirSync(blobs)).toEqual([]);
    expect(mockRequests()).toBe(before);
  });

  it('--tokenizer-revision a branch resolves to its commit and writes refs/<branch>', async () => {
    const home = tmpDir();
    const { r, dir } = await profile(
      ['--tokenizer', 'acme/bytes', '--tokenizer-revision', 'v2', '--export-level', 'records'],
      hubEnv(hub, home),
    );
    expect(r.code, r.stderr).toBe(0);
    const info = (await (await fetch(`${hub.endpoint}/api/models/acme/bytes/revision/v2`)).json()) as { sha: string };
    const repo = path.join(home, 'hub', 'models--acme--bytes');
    expect(fs.readFileSync(path.join(repo, 'refs', 'v2'), 'utf8')).toBe(info.sha);
    expect(fs.readdirSync(path.join(repo, 'snapshots'))).toEqual([info.sha]);
    expect(fs.existsSync(path.join(repo, 'refs', 'main'))).toBe(false);
    // v2 is cl100k: the mock's words are one token each.
    for (const rec of readJsonl(path.join(dir, 'records.jsonl'))) expect(rec.metrics.output_sequence_length.value).toBe(4);
  });

  it('the token file `hf auth login` writes opens a gated repo', async () => {
    const home = tmpDir();
    fs.writeFileSync(path.join(home, 'token'), TOKEN);
    const { r, dir } = await profile(['--model', 'acme/gated'], hubEnv(hub, home));
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(path.join(dir, 'profile_export.json')).tokenizer).toBe('acme/gated');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});

describe('bad input: one line, exit 2, no request sent', () => {
  const cases: [string, string[], (home: string) => Promise<NodeJS.ProcessEnv>, RegExp][] = [
    [
      'a gated repo without a token',
      ['--model', 'acme/gated'],
      async (h) => hubEnv(hub, h),
      /acme\/gated is gated; request access at http:\/\/127\.0\.0\.1:\d+\/acme\/gated; .*HF_TOKEN/,
    ],
    [
      'a refused token',
      ['--model', 'acme/bytes'],
      async (h) => hubEnv(hub, h, { HF_TOKEN: 'hf_wrongToken0123456789' }),
      /token in HF_TOKEN .* was refused/,
    ],
    ['an unknown repo', ['--model', 'acme/nope'], async (h) => hubEnv(hub, h), /no model repo acme\/nope at http:\/\/127\.0\.0\.1:\d+/],
    [
      'an unknown revision',
      ['--tokenizer', 'acme/bytes', '--tokenizer-revision', 'nope'],
      async (h) => hubEnv(hub, h),
      /model repo acme\/bytes has no revision 'nope'/,
    ],
    [
      'a repo with tokenizer.model only',
      ['--model', 'acme/spm'],
      async (h) => hubEnv(hub, h),
      /no tokenizer\.json .* only tokenizer\.model .* --tokenizer server/,
    ],
    [
      'no network and an empty cache',
      ['--model', 'acme/bytes'],
      async (h) => hubEnv({ endpoint: `http://127.0.0.1:${await closedPort()}` }, h),
      /no answer from .*ECONNREFUSED.*HF_HUB_OFFLINE=1.*hf download acme\/bytes tokenizer\.json/,
    ],
    [
      'offline and an empty cache',
      ['--model', 'acme/bytes'],
      async (h) => hubEnv(hub, h, { HF_HUB_OFFLINE: '1' }),
      /HF_HUB_OFFLINE is set .*hf download acme\/bytes/,
    ],
  ];
  it.each(cases)('%s', async (_name, args, envOf, message) => {
    const before = mockRequests();
    const { r, dir } = await profile(args, await envOf(tmpDir()));
    expect(r.code, r.stderr).toBe(2);
    expect(lines(r.stderr), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('hf_wrongToken');
    expect(mockRequests()).toBe(before);
    expect(fs.existsSync(path.join(dir, 'records.jsonl'))).toBe(false);
  });
});
