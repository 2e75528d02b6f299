import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenizerLoadError } from '../../../src/errors.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import { DEFAULT_TOKENIZER_PACKAGE, findPackageRoot, resolveTokenizerSpec } from '../../../src/tokenizer/resolve.js';

const PKG = DEFAULT_TOKENIZER_PACKAGE;
let pkgRoot: string;
let modelsDir: string;
let tokenizerFile: string;
let tmp: string;

beforeAll(() => {
  const root = findPackageRoot(PKG);
  if (!root) throw new Error(`${PKG} is not installed`);
  pkgRoot = root;
  modelsDir = join(pkgRoot, 'models');
  tokenizerFile = join(modelsDir, 'tokenizer.json');
  tmp = mkdtempSync(join(tmpdir(), 'sb-tok-'));
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The load must fail with TokenizerLoadError, on one line that names the spec. */
async function expectLoadError(spec: string, fragment: RegExp): Promise<void> {
  const err = await loadTokenizer(spec).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TokenizerLoadError);
  const e = err as TokenizerLoadError;
  expect(e.code).toBe('SB_TOKENIZER');
  expect(e.exitCode).toBe(2);
  expect(e.message).toContain(spec);
  expect(e.message).not.toContain('\n');
  expect(e.message).toMatch(fragment);
}

describe('loadTokenizer', () => {
  it('loads the default package when no spec is given and counts cl100k tokens', async () => {
    const tok = await loadTokenizer();
    expect(tok.name).toBe(PKG);
    expect(tok.path).toBe(tokenizerFile);
    // cl100k: "Hello" and " world" are one token each; no BOS/EOS is added.
    expect(tok.encode('Hello world')).toEqual([9906, 1917]);
    expect(tok.count('Hello world')).toBe(2);
    expect(tok.count('')).toBe(0);
    const text = 'Tokenizers round-trip plain text: 12,345 apples.';
    expect(tok.decode(tok.encode(text))).toBe(text);
  });

  it('the default package cannot be resolved through its package.json export (why the fallback exists)', () => {
    const req = createRequire(import.meta.url);
    expect(() => req.resolve(`${PKG}/package.json`)).toThrow();
    expect(findPackageRoot(PKG)).toBe(pkgRoot);
  });

  it('loads from a path to tokenizer.json, with the sibling config', async () => {
    expect(resolveTokenizerSpec(tokenizerFile)).toEqual({
      tokenizerPath: tokenizerFile,
      configPath: join(modelsDir, 'tokenizer_config.json'),
    });
    const tok = await loadTokenizer(tokenizerFile);
    expect(tok.name).toBe(tokenizerFile);
    expect(tok.count('Hello world')).toBe(2);
  });

  it('loads from a relative path', async () => {
    const rel = relative(process.cwd(), tokenizerFile);
    const tok = await loadTokenizer(rel);
    expect(tok.path).toBe(tokenizerFile);
  });

  it('loads from a folder holding tokenizer.json, and from a package folder with models/', async () => {
    expect((await loadTokenizer(modelsDir)).path).toBe(tokenizerFile);
    expect((await loadTokenizer(pkgRoot)).path).toBe(tokenizerFile);
  });

  it('loads from an installed package name', async () => {
    const tok = await loadTokenizer(PKG);
    expect(tok.name).toBe(PKG);
    expect(tok.path).toBe(tokenizerFile);
    expect(tok.count('Hello world')).toBe(2);
  });

  it('caches by resolved file: every spec form shares one loaded tokenizer', async () => {
    const a = await loadTokenizer();
    const t0 = performance.now();
    const b = await loadTokenizer(modelsDir);
    expect(performance.now() - t0).toBeLessThan(100); // a fresh load takes ~0.5 s
    expect(b.encode).toBe(a.encode);
    expect(b.name).toBe(modelsDir);
  });

  it('uses an empty config when there is no tokenizer_config.json next to the file', async () => {
    const dir = join(tmp, 'bare');
    mkdirSync(dir);
    symlinkSync(tokenizerFile, join(dir, 'tokenizer.json'));
    expect(resolveTokenizerSpec(dir).configPath).toBeNull();
    const tok = await loadTokenizer(dir);
    expect(tok.count('Hello world')).toBe(2);
  });

  it('rejects a path that does not exist', async () => {
    await expectLoadError(join(tmp, 'nope', 'tokenizer.json'), /no tokenizer\.json found/);
  });

  it('rejects a package that is not installed', async () => {
    await expectLoadError('no-such-tokenizer-package-xyz', /not installed/);
  });

  it('rejects an installed package without a tokenizer.json, listing where it looked', async () => {
    await expectLoadError('yargs', /tried: .*yargs[\\/]models[\\/]tokenizer\.json/);
  });

  it('rejects a JSON file that is not a tokenizer', async () => {
    const file = join(tmp, 'not-a-tokenizer.json');
    writeFileSync(file, JSON.stringify({ hello: 'world', items: [1, 2, 3] }));
    await expectLoadError(file, /is not a tokenizer\.json/);
  });

  it('rejects a tokenizer.json whose model the library cannot build', async () => {
    const dir = join(tmp, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ model: { type: 'BPE' } }));
    await expectLoadError(dir, /not a usable tokenizer/);
  });

  it('rejects a file that is not JSON', async () => {
    const file = join(tmp, 'tokenizer.txt');
    writeFileSync(file, 'this is { not json');
    await expectLoadError(file, /not valid JSON/);
  });

  it('does not cache a failed load', async () => {
    const dir = join(tmp, 'later');
    mkdirSync(dir);
    const file = join(dir, 'tokenizer.json');
    writeFileSync(file, '{}');
    await expectLoadError(file, /not a tokenizer/);
    rmSync(file);
    symlinkSync(tokenizerFile, file);
    expect((await loadTokenizer(file)).count('Hello world')).toBe(2);
  });
});
