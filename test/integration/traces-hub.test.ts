// A trace from its Hub copy (issue 32, section 4): --input-file hf://datasets/ORG/NAME/PATH is
// downloaded from the local Hub process (HF_ENDPOINT) into the HF cache and replayed; a second run,
// offline with the Hub stopped, replays it from the cache.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { hubEnv, repoDir, startLocalHub, type LocalHub } from '../helpers/hub.js';

const CSV = [
  'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type',
  '0,ChatGPT,40,4,44,Conversation log',
  '0.05,GPT-4,30,3,33,Conversation log',
  '0.1,ChatGPT,20,2,22,API log',
].join('\n');

let hub: LocalHub;
let mock: SpawnedMock;
beforeAll(async () => {
  [hub, mock] = await Promise.all([
    startLocalHub({
      repos: [{ type: 'dataset', name: 'HPMLL/BurstGPT', revisions: [{ name: 'main', dir: repoDir({ 'data/BurstGPT_1.csv': CSV }) }] }],
    }),
    spawnMock(['--ttft-ms', '1', '--itl-ms', '1']),
  ]);
});
afterAll(async () => {
  await Promise.all([hub?.stop(), mock?.stop()]);
});

async function replay(file: string, env: NodeJS.ProcessEnv) {
  const dir = tmpDir();
  const r = await runCli(
    [
      'profile',
      '--url',
      mock.url,
      '--tokenizer',
      'cl100k',
      '--input-file',
      file,
      '--custom-dataset-type',
      'burst_gpt_trace',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ],
    { env, timeoutMs: 120_000 },
  );
  return { r, dir };
}

describe('a trace from its Hub copy', () => {
  it('hf://datasets/… is downloaded into the cache and replayed; offline, the cache serves it', async () => {
    const home = tmpDir();
    const file = 'hf://datasets/HPMLL/BurstGPT/data/BurstGPT_1.csv';
    const first = await replay(file, hubEnv(hub, home));
    expect(first.r.code, first.r.stderr).toBe(0);
    expect(readJson(path.join(first.dir, 'profile_export.json')).counts).toEqual({ issued: 3, succeeded: 3, errored: 0, cancelled: 0 });
    const snapshots = path.join(home, 'hub', 'datasets--HPMLL--BurstGPT', 'snapshots');
    const [commit] = fs.readdirSync(snapshots);
    expect(fs.readFileSync(path.join(snapshots, commit, 'data', 'BurstGPT_1.csv'), 'utf8')).toBe(CSV);

    const offline = await replay(file, hubEnv(null, home, { HF_HUB_OFFLINE: '1' }));
    expect(offline.r.code, offline.r.stderr).toBe(0);
    expect(readJson(path.join(offline.dir, 'profile_export.json')).counts.succeeded).toBe(3);
  });

  it('a file the repo does not hold, or a malformed hf:// path: one line, exit 2', async () => {
    const home = tmpDir();
    const missing = await replay('hf://datasets/HPMLL/BurstGPT/data/nope.csv', hubEnv(hub, home));
    expect(missing.r.code).toBe(2);
    expect(missing.r.stderr.trim()).toBe(
      "servebench: Hugging Face Hub: dataset repo HPMLL/BurstGPT has no file 'data/nope.csv' at revision 'main'",
    );
    const bad = await replay('hf://datasets/BurstGPT', hubEnv(hub, home));
    expect(bad.r.code).toBe(2);
    expect(bad.r.stderr.trim()).toBe(
      'servebench: --input-file: hf://datasets/BurstGPT is not a Hub path; expected hf://datasets/ORG/NAME[@REVISION]/PATH',
    );
  });
});
