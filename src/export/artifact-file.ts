// Writing artifacts so that a full disk (ENOSPC), a quota or an unwritable dir is one clear error
// (ArtifactWriteError: the path and the error), never an unhandled stream error with a stack trace.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { ArtifactWriteError } from '../errors.js';

/** mkdir -p the artifact dir, or ArtifactWriteError naming it. */
export async function makeArtifactDir(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    throw ArtifactWriteError.from(dir, err);
  }
}

/** Writes a whole artifact, or throws ArtifactWriteError naming it (and leaves no truncated copy behind). */
export async function writeArtifact(file: string, text: string): Promise<void> {
  try {
    await fs.writeFile(file, text);
  } catch (err) {
    // Only a regular file we were writing is removed (never a device such as /dev/full).
    const st = await fs.lstat(file).catch(() => null);
    if (st?.isFile()) await fs.rm(file, { force: true }).catch(() => {});
    throw ArtifactWriteError.from(file, err);
  }
}

/**
 * A file written as it goes (records.jsonl), with a synchronous write(2) per chunk: a line written is
 * in the kernel's hands at once, so a process that quits or is killed the next moment loses none of
 * them (the cost: one write per batch of lines on the calling thread). The first failure is kept
 * (`error`), reported once through `onError`, and ends the writing; later chunks are dropped and counted.
 * A chunk that fails halfway is cut off again, so the file holds whole chunks (whole lines) only and
 * stays readable by `servebench analyze`.
 */
export class AppendFile {
  private fd: number | null = null;
  /** Bytes of the whole chunks written so far. */
  private size = 0;
  error: ArtifactWriteError | null = null;
  /** Bytes handed over that never reached the file (after a failure). */
  lostBytes = 0;

  constructor(
    readonly path: string,
    private readonly onError: (err: ArtifactWriteError) => void = () => {},
  ) {}

  /** Creates (truncates) the file now; a failure is kept as for a write. */
  open(): this {
    if (this.fd !== null || this.error) return this;
    try {
      this.fd = fsSync.openSync(this.path, 'w');
    } catch (err) {
      this.fail(err);
    }
    return this;
  }

  /** Text, or text already encoded as UTF-8 (a record worker's lines). */
  write(text: string | Uint8Array): void {
    if (text.length === 0) return;
    this.open();
    const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    if (this.fd === null) {
      this.lostBytes += buf.length;
      return;
    }
    let off = 0;
    try {
      // write(2) may take less than it was given (a disk filling up): go on until it errors.
      while (off < buf.length) off += fsSync.writeSync(this.fd, buf, off, buf.length - off);
      this.size += buf.length;
    } catch (err) {
      this.lostBytes += buf.length;
      try {
        // Shrinking needs no space: drop the chunk's written part, so no line is left half written.
        if (off > 0) fsSync.ftruncateSync(this.fd, this.size);
      } catch {
        /* the write's error is the one to report */
      }
      this.fail(err);
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      fsSync.closeSync(fd);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    if (this.fd !== null) {
      try {
        fsSync.closeSync(this.fd);
      } catch {
        /* the write's error is the one to report */
      }
      this.fd = null;
    }
    if (this.error) return;
    this.error = ArtifactWriteError.from(this.path, err);
    this.onError(this.error);
  }
}
