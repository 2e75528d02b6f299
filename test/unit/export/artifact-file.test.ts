// Artifact writing on a failing disk (export/artifact-file.ts): /dev/full gives a real ENOSPC from
// the kernel on every write; an unwritable path gives a real ENOENT. Each is one ArtifactWriteError
// naming the path and the error, never an unhandled stream error.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactWriteError } from '../../../src/errors.js';
import { AppendFile, makeArtifactDir, writeArtifact } from '../../../src/export/artifact-file.js';
import { tmpDir } from '../../helpers/cli.js';

describe('AppendFile', () => {
  it('writes whole chunks, synchronously: the bytes are in the file before close()', () => {
    const file = path.join(tmpDir(), 'records.jsonl');
    const f = new AppendFile(file).open();
    f.write('{"a":1}\n');
    f.write('');
    f.write('{"a":2}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n{"a":2}\n');
    f.close();
    expect(f.error).toBeNull();
  });

  it('on ENOSPC (/dev/full) keeps the first error, reports it once, and drops what follows', () => {
    const seen: ArtifactWriteError[] = [];
    const f = new AppendFile('/dev/full', (e) => seen.push(e)).open();
    f.write('x'.repeat(100) + '\n');
    f.write('y'.repeat(50) + '\n');
    f.close();
    expect(seen).toHaveLength(1);
    expect(f.error).toBeInstanceOf(ArtifactWriteError);
    expect(f.error!.errno).toBe('ENOSPC');
    expect(f.error!.message).toBe('cannot write /dev/full: ENOSPC: no space left on device');
    expect(f.error!.exitCode).toBe(1);
    expect(f.lostBytes).toBe(152);
  });

  it('a file that cannot be created is the same one error, at open()', () => {
    const seen: ArtifactWriteError[] = [];
    const file = path.join(tmpDir(), 'missing-dir', 'records.jsonl');
    const f = new AppendFile(file, (e) => seen.push(e)).open();
    f.write('{}\n');
    expect(seen).toHaveLength(1);
    expect(seen[0].message).toBe(`cannot write ${file}: ENOENT: no such file or directory`);
    expect(f.lostBytes).toBe(3);
  });
});

describe('writeArtifact and makeArtifactDir', () => {
  it('ENOSPC is an ArtifactWriteError naming the path (and /dev/full is left alone)', async () => {
    const err = await writeArtifact('/dev/full', '{}\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArtifactWriteError);
    expect((err as Error).message).toBe('cannot write /dev/full: ENOSPC: no space left on device');
    expect(fs.statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('a dir that cannot be made names the dir', async () => {
    const file = path.join(tmpDir(), 'a-file');
    fs.writeFileSync(file, '');
    const err = await makeArtifactDir(path.join(file, 'run')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArtifactWriteError);
    expect((err as Error).message).toMatch(new RegExp(`^cannot write ${file}/run: (ENOTDIR|EEXIST): `));
  });
});
