// Run the mock as its own process (what `profile` does without --url, and what integration
// tests do), so its timers and sockets never share an event loop with the client measuring it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MockStartError } from '../errors.js';

/** src/mock/spawn.ts (vitest) and dist/mock/spawn.js (built) are both two levels below the repo root. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SERVEBENCH_BIN = fileURLToPath(new URL('../../bin/servebench.js', import.meta.url));

const LISTENING = /^servebench mock listening on (https?:\/\/\S+:(\d+))$/;
const STDERR_TAIL_CHARS = 8 * 1024;
const KILL_AFTER_MS = 3000;

export interface SpawnMockOptions {
  /** How long to wait for the listening line (default 15 s). */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface SpawnedMock {
  url: string;
  port: number;
  child: ChildProcess;
  /** The last few KB the child wrote to stderr (its logs), for diagnostics. */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 3 s; resolves once the child has exited. Safe to call twice. */
  stop(): Promise<void>;
}

/** Start `servebench mock --port 0 ...args` and resolve once it prints its listening line. */
export function spawnMock(args: string[] = [], opts: SpawnMockOptions = {}): Promise<SpawnedMock> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const hasPort = args.some((a) => a === '--port' || a.startsWith('--port='));
  const argv = [SERVEBENCH_BIN, 'mock', '--exit-with-stdin', ...(hasPort ? [] : ['--port', '0']), ...args];
  const child = spawn(process.execPath, argv, {
    cwd: REPO_ROOT,
    env: opts.env ?? process.env,
    // stdin is our lifeline: if this process dies, the pipe closes and the mock exits.
    stdio: ['pipe', 'pipe', 'pipe'],
    // Own process group: a terminal Ctrl-C reaches only the parent, which then stops requests
    // before the server (otherwise in-flight requests would end as connection errors).
    detached: true,
  });
  let stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    stderrTail = (stderrTail + s).slice(-STDERR_TAIL_CHARS);
  });
  // If this process dies first, do not leave the mock behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    });
  });

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        await exited;
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  return new Promise<SpawnedMock>((resolve, reject) => {
    let stdoutBuf = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop();
      const tail = stderrTail.trim();
      reject(new MockStartError(`mock server ${why}${tail ? `; its stderr: ${tail}` : ''}`));
    };
    const timer = setTimeout(() => fail(`did not report listening within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (err) => fail(`could not be started: ${err.message}`));
    child.once('exit', (code, signal) => {
      // Let the stderr pipe drain first so the message carries the child's own error line.
      setImmediate(() => fail(`exited (${signal ?? `code ${code}`}) before listening`));
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      if (settled) return; // keep draining so the child never blocks on a full pipe
      stdoutBuf += s;
      let nl: number;
      while ((nl = stdoutBuf.indexOf('\n')) !== -1) {
        const line = stdoutBuf.slice(0, nl).trim();
        stdoutBuf = stdoutBuf.slice(nl + 1);
        const m = LISTENING.exec(line);
        if (m) {
          settled = true;
          clearTimeout(timer);
          resolve({ url: m[1], port: Number(m[2]), child, stderr: () => stderrTail, stop });
          return;
        }
      }
    });
  });
}
