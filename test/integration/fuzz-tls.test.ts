// The http1_sse fuzz target in its TLS mode (fuzz/run.sh http1_sse_tls), briefly: built with clang's
// libFuzzer, ASan and UBSan against the system libssl, it sends each input over TLS in fuzzer-chosen
// record and piece sizes and reads it back through the engine's TLS read path (native/engine/engine_tls.cc),
// checking the parser's outcome against the plain feed. Any crash, sanitizer report or mismatch
// exits non-zero. Needs clang, libfuzzer and libssl-dev (fuzz/run.sh names them when missing).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('fuzz target, TLS mode', () => {
  it('builds and runs http1_sse_tls for 3 s over the corpus without a finding', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-fuzz-tls-'));
    try {
      const { stdout, stderr } = await run('sh', ['fuzz/run.sh', '3', 'http1_sse_tls'], {
        cwd: ROOT,
        env: { ...process.env, TMPDIR: tmp },
        timeout: 170_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(stdout + stderr).toMatch(/Done \d+ runs/);
      expect(fs.readdirSync(path.join(tmp, 'servebench-fuzz', 'http1_sse_tls', 'crashes'))).toEqual([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 180_000);
});
