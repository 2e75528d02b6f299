// --record-requests: one JSON line per received request, for tests that check what a client sent.
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { InvalidFileError } from '../errors.js';

/** Headers that carry secrets never reach the file. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie']);

export class RequestRecorder {
  private readonly out: WriteStream;

  constructor(path: string) {
    let fd: number;
    try {
      // Opened synchronously so a bad path fails at startup, not on the first request.
      fd = openSync(path, 'a');
    } catch (err) {
      throw new InvalidFileError(`--record-requests: cannot open ${path}: ${(err as Error).message}`);
    }
    this.out = createWriteStream('', { fd });
  }

  /** `tsNs` is CLOCK_MONOTONIC ns at arrival; `body` is the parsed JSON, the raw text if it did not parse, or null. */
  record(tsNs: bigint, method: string, path: string, headers: IncomingHttpHeaders, body: unknown): void {
    const kept: IncomingHttpHeaders = {};
    for (const k of Object.keys(headers)) if (!SECRET_HEADERS.has(k)) kept[k] = headers[k];
    // ts_ns is written as a bare integer so it stays exact beyond 2^53.
    this.out.write(
      `{"ts_ns":${tsNs},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},` +
        `"headers":${JSON.stringify(kept)},"body":${JSON.stringify(body ?? null)}}\n`,
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(resolve));
  }
}
