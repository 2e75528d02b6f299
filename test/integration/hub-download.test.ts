// hubFile / hubListFiles against the local Hub process: the cache huggingface_hub writes, LFS files
// through the second host, offline use, and one coded error per condition.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubFile, hubListFiles } from '../../src/hub/index.js';
import { clearSecrets, scrub } from '../../src/secrets.js';
import { tmpDir } from '../helpers/cli.js';
import { cacheListing, cl100kTokenizerJson, hubEnv, repoDir, startLocalHub, type LocalHub } from '../helpers/hub.js';

const TOKEN = 'hf_localHubTestToken0123456789';
const big = Buffer.alloc(1_500_000, 7);
/** A port nothing listens on (fetch refuses the vitest default, port 9, as a bad port before connecting). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const gitOid = (b: Buffer) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${b.length}\0`), b]))
    .digest('hex');

let hub: LocalHub;
const tokenizer = cl100kTokenizerJson();
const mainDir = repoDir({ 'tokenizer.json': tokenizer, 'config/a.json': '{"a":1}' });
const v1Dir = repoDir({ 'tokenizer.json': '{"v":1}' });
const dataDir = repoDir({ 'data/train.parquet': big, 'README.md': '# data' });

beforeAll(async () => {
  hub = await startLocalHub({
    tokens: [TOKEN, 'hf_otherValidToken0123456789'],
    repos: [
      {
        type: 'model',
        name: 'org/tok',
        revisions: [
          { name: 'main', dir: mainDir },
          { name: 'v1', dir: v1Dir },
        ],
      },
      {
        type: 'dataset',
        name: 'org/data',
        revisions: [
          { name: 'main', dir: dataDir },
          { name: 'refs/convert/parquet', dir: repoDir({ 'default/train/0000.parquet': 'PAR1' }) },
        ],
      },
      { type: 'model', name: 'org/gated', gated: true, access: [TOKEN], revisions: [{ name: 'main', dir: mainDir }] },
    ],
    pageSize: 1,
  });
});
afterAll(async () => {
  clearSecrets();
  await hub?.stop();
});

describe('hubFile', () => {
  it("writes huggingface_hub's cache layout: blobs by ETag, snapshot links by commit, refs/<revision>", async () => {
    const home = tmpDir();
    const env = hubEnv(hub, home);
    const file = await hubFile({ repoType: 'model', repo: 'org/tok', path: 'tokenizer.json' }, { env });
    const nested = await hubFile({ repoType: 'model', repo: 'org/tok', path: 'config/a.json' }, { env });
    const lfs = await hubFile({ repoType: 'dataset', repo: 'org/data', path: 'data/train.parquet' }, { env });
    expect(fs.readFileSync(file, 'utf8')).toBe(tokenizer);
    expect(fs.readFileSync(nested, 'utf8')).toBe('{"a":1}');
    expect(fs.readFileSync(lfs).equals(big)).toBe(true);

    const cache = path.join(home, 'hub');
    const commit = fs.readFileSync(path.join(cache, 'models--org--tok', 'refs', 'main'), 'utf8');
    const dataCommit = fs.readFileSync(path.join(cache, 'datasets--org--data', 'refs', 'main'), 'utf8');
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    // cl100k's tokenizer.json is over the server's 1 MB LFS threshold: its blob is named by its sha256.
    expect(Buffer.byteLength(tokenizer)).toBeGreaterThan(1_000_000);
    const tokOid = sha256(tokenizer);
    const aOid = gitOid(Buffer.from('{"a":1}'));
    const bigSha = sha256(big);
    expect(cacheListing(cache)).toEqual(
      [
        'datasets--org--data/',
        'datasets--org--data/blobs/',
        `datasets--org--data/blobs/${bigSha}`,
        'datasets--org--data/refs/',
        'datasets--org--data/refs/main',
        'datasets--org--data/snapshots/',
        `datasets--org--data/snapshots/${dataCommit}/`,
        `datasets--org--data/snapshots/${dataCommit}/data/`,
        `datasets--org--data/snapshots/${dataCommit}/data/train.parquet -> ../../../blobs/${bigSha}`,
        'models--org--tok/',
        'models--org--tok/blobs/',
        `models--org--tok/blobs/${tokOid}`,
        `models--org--tok/blobs/${aOid}`,
        'models--org--tok/refs/',
        'models--org--tok/refs/main',
        'models--org--tok/snapshots/',
        `models--org--tok/snapshots/${commit}/`,
        `models--org--tok/snapshots/${commit}/config/`,
        `models--org--tok/snapshots/${commit}/config/a.json -> ../../../blobs/${aOid}`,
        `models--org--tok/snapshots/${commit}/tokenizer.json -> ../../blobs/${tokOid}`,
      ].sort(),
    );
    expect(file).toBe(path.join(cache, 'models--org--tok', 'snapshots', commit, 'tokenizer.json'));
    // The LFS file came from the second host, and the token-less run sent no token anywhere.
    const reqs = hub.requests();
    expect(reqs.some((r) => r.host === 'cdn' && r.path === `/blobs/${bigSha}` && r.status === 200)).toBe(true);
  });

  it('a branch resolves to its commit and writes refs/<branch>; a commit hash is used from the cache without asking', async () => {
    const home = tmpDir();
    const env = hubEnv(hub, home);
    const file = await hubFile({ repoType: 'model', repo: 'org/tok', revision: 'v1', path: 'tokenizer.json' }, { env });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"v":1}');
    const repoDirPath = path.join(home, 'hub', 'models--org--tok');
    const commit = fs.readFileSync(path.join(repoDirPath, 'refs', 'v1'), 'utf8');
    expect(file).toBe(path.join(repoDirPath, 'snapshots', commit, 'tokenizer.json'));
    expect(fs.existsSync(path.join(repoDirPath, 'refs', 'main'))).toBe(false);
    const before = hub.requests().length;
    const again = await hubFile({ repoType: 'model', repo: 'org/tok', revision: commit, path: 'tokenizer.json' }, { env });
    expect(again).toBe(file);
    expect(hub.requests().length).toBe(before);
  });

  it('offline, the cache answers; with nothing cached, one coded error names HF_HUB_OFFLINE and how to fill the cache', async () => {
    const home = tmpDir();
    await hubFile({ repoType: 'model', repo: 'org/tok', path: 'tokenizer.json' }, { env: hubEnv(hub, home) });
    const before = hub.requests().length;
    const offline = hubEnv(null, home, { HF_HUB_OFFLINE: '1', HF_ENDPOINT: 'http://127.0.0.1:9' });
    const file = await hubFile({ repoType: 'model', repo: 'org/tok', path: 'tokenizer.json' }, { env: offline });
    expect(fs.readFileSync(file, 'utf8')).toBe(tokenizer);
    expect(await hubListFiles('model', 'org/tok', 'main', { env: offline })).toEqual(['tokenizer.json']);
    expect(hub.requests().length).toBe(before);
    const err = await hubFile({ repoType: 'model', repo: 'org/tok', path: 'config/a.json' }, { env: offline }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SB_HUB_OFFLINE', exitCode: 2 });
    expect((err as Error).message).toMatch(/HF_HUB_OFFLINE.*hf download org\/tok config\/a\.json/);
  });

  it('the Hub out of reach: a cached file is used, else HubNetworkError', async () => {
    const home = tmpDir();
    await hubFile({ repoType: 'model', repo: 'org/tok', path: 'tokenizer.json' }, { env: hubEnv(hub, home) });
    const closed = hubEnv({ endpoint: `http://127.0.0.1:${await closedPort()}` }, home);
    expect(await hubFile({ repoType: 'model', repo: 'org/tok', path: 'tokenizer.json' }, { env: closed })).toMatch(/tokenizer\.json$/);
    const err = await hubFile({ repoType: 'model', repo: 'org/other', path: 'tokenizer.json' }, { env: closed }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SB_HUB_NETWORK', exitCode: 2 });
    expect((err as Error).message).toMatch(/ECONNREFUSED.*HF_HUB_OFFLINE/);
  });

  it('one coded error per condition: unknown repo, revision, file; gated without a token, with one not granted; a refused token', async () => {
    const home = tmpDir();
    type Coded = Error & { code: string };
    const get = (req: { repo: string; revision?: string; path?: string }, extra: NodeJS.ProcessEnv = {}): Promise<Coded> =>
      hubFile({ repoType: 'model', path: 'tokenizer.json', ...req }, { env: hubEnv(hub, home, extra) }).then(
        () => new Error('no error') as Coded,
        (e: unknown) => e as Coded,
      );
    expect(await get({ repo: 'org/nope' })).toMatchObject({ code: 'SB_HUB_REPO_NOT_FOUND' });
    expect(await get({ repo: 'org/nope' }, { HF_TOKEN: TOKEN })).toMatchObject({ code: 'SB_HUB_REPO_NOT_FOUND' });
    expect(await get({ repo: 'org/tok', revision: 'nope' })).toMatchObject({ code: 'SB_HUB_REVISION_NOT_FOUND' });
    expect(await get({ repo: 'org/tok', path: 'tokenizer.model' })).toMatchObject({ code: 'SB_HUB_ENTRY_NOT_FOUND' });
    const anonymous = await get({ repo: 'org/gated' });
    expect(anonymous).toMatchObject({ code: 'SB_HUB_GATED', exitCode: 2 });
    expect(anonymous.message).toMatch(/request access at http:\/\/127\.0\.0\.1:\d+\/org\/gated.*HF_TOKEN/);
    const notGranted = await get({ repo: 'org/gated' }, { HF_TOKEN: 'hf_otherValidToken0123456789' });
    expect(notGranted).toMatchObject({ code: 'SB_HUB_GATED' });
    expect(notGranted.message).toMatch(/has no access/);
    const refused = await get({ repo: 'org/tok' }, { HF_TOKEN: 'hf_notAKnownToken0123456789' });
    expect(refused).toMatchObject({ code: 'SB_HUB_REPO_NOT_FOUND' });
    expect(refused.message).toMatch(/refused/);
    expect(refused.message).not.toContain('hf_notAKnownToken');
    expect(await get({ repo: '../etc' })).toMatchObject({ code: 'SB_HUB_REPO_NOT_FOUND' });
    expect(await get({ repo: 'org/tok', path: '../../x' })).toMatchObject({ code: 'SB_HUB_ENTRY_NOT_FOUND' });
  });

  it('HF_TOKEN_PATH names the token file', async () => {
    const file = path.join(tmpDir(), 'my-token');
    fs.writeFileSync(file, TOKEN);
    const got = await hubFile(
      { repoType: 'model', repo: 'org/gated', path: 'config/a.json' },
      { env: hubEnv(hub, tmpDir(), { HF_TOKEN_PATH: file }) },
    );
    expect(fs.readFileSync(got, 'utf8')).toBe('{"a":1}');
  });

  it('the token file `hf auth login` writes is read, goes to the Hub only, and becomes a secret', async () => {
    const home = tmpDir();
    fs.writeFileSync(path.join(home, 'token'), `${TOKEN}\n`);
    const file = await hubFile({ repoType: 'model', repo: 'org/gated', path: 'tokenizer.json' }, { env: hubEnv(hub, home) });
    expect(fs.readFileSync(file, 'utf8')).toBe(tokenizer);
    expect(scrub(`Bearer ${TOKEN}`)).not.toContain(TOKEN);
    // The LFS download's second host never gets the token.
    const home2 = tmpDir();
    await hubFile({ repoType: 'dataset', repo: 'org/data', path: 'data/train.parquet' }, { env: hubEnv(hub, home2, { HF_TOKEN: TOKEN }) });
    const cdn = hub.requests().filter((r) => r.host === 'cdn');
    expect(cdn.length).toBeGreaterThan(0);
    expect(cdn.every((r) => r.token === false)).toBe(true);
  });
});

describe('the local Hub', () => {
  it('answers HEAD as the Hub does: X-Repo-Commit and ETag; an LFS file is a redirect with X-Linked-Etag and X-Linked-Size', async () => {
    const small = await fetch(`${hub.endpoint}/org/tok/resolve/main/config/a.json`, { method: 'HEAD', redirect: 'manual' });
    expect(small.status).toBe(200);
    expect(small.headers.get('x-repo-commit')).toMatch(/^[0-9a-f]{40}$/);
    expect(small.headers.get('etag')).toBe(`"${gitOid(Buffer.from('{"a":1}'))}"`);
    expect(small.headers.get('content-length')).toBe('7');
    const lfs = await fetch(`${hub.endpoint}/datasets/org/data/resolve/main/data/train.parquet`, { method: 'HEAD', redirect: 'manual' });
    expect(lfs.status).toBe(302);
    expect(lfs.headers.get('x-linked-etag')).toBe(`"${sha256(big)}"`);
    expect(lfs.headers.get('x-linked-size')).toBe(String(big.length));
    expect(new URL(lfs.headers.get('location')!).port).not.toBe(String(hub.port));
    const info = (await (await fetch(`${hub.endpoint}/api/models/org/tok/revision/main`)).json()) as {
      sha: string;
      siblings: { rfilename: string }[];
    };
    expect(info.sha).toBe(small.headers.get('x-repo-commit'));
    expect(info.siblings.map((s) => s.rfilename).sort()).toEqual(['config/a.json', 'tokenizer.json']);
  });
});

describe('hubListFiles', () => {
  it("lists a revision's files recursively through the paginated tree listing", async () => {
    const env = hubEnv(hub, tmpDir());
    expect(await hubListFiles('model', 'org/tok', 'main', { env })).toEqual(['config/a.json', 'tokenizer.json']);
    expect(await hubListFiles('dataset', 'org/data', undefined, { env })).toEqual(['README.md', 'data/train.parquet']);
    // A revision with slashes (the Hub's converted-Parquet branch) is one revision, and its ref a nested file.
    expect(await hubListFiles('dataset', 'org/data', 'refs/convert/parquet', { env })).toEqual(['default/train/0000.parquet']);
    const home = env.HF_HOME!;
    const parquet = await hubFile(
      { repoType: 'dataset', repo: 'org/data', revision: 'refs/convert/parquet', path: 'default/train/0000.parquet' },
      { env },
    );
    expect(fs.readFileSync(parquet, 'utf8')).toBe('PAR1');
    const ref = path.join(home, 'hub', 'datasets--org--data', 'refs', 'refs', 'convert', 'parquet');
    expect(parquet).toBe(
      path.join(home, 'hub', 'datasets--org--data', 'snapshots', fs.readFileSync(ref, 'utf8'), 'default', 'train', '0000.parquet'),
    );
    const err = await hubListFiles('model', 'org/tok', 'nope', { env }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SB_HUB_REVISION_NOT_FOUND' });
  });
});
