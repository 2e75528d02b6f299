// Spawns the test proxy (proxy-server.mjs, its own process) and reads back what it tunnelled.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpDir } from './cli.js';

const SERVER = fileURLToPath(new URL('./proxy-server.mjs', import.meta.url));

export interface TestProxy {
  port: number;
  /** `CONNECT host:port` / `FORWARD url` lines, one per request it carried. */
  log(): string[];
  stop(): Promise<void>;
}

/** Starts the proxy; with `auth` ("user:pass") it refuses requests without that Basic Proxy-Authorization. */
export function spawnProxy(auth?: string): Promise<TestProxy> {
  const logFile = path.join(tmpDir('servebench-proxy-'), 'proxy.log');
  const child = spawn(process.execPath, [SERVER, `log=${logFile}`, ...(auth ? [`auth=${auth}`] : [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('exit', (code) => reject(new Error(`test proxy exited with ${code}: ${err}`)));
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /listening (\d+)/.exec(out);
      if (!m) return;
      resolve({
        port: Number(m[1]),
        log: () =>
          fs.existsSync(logFile)
            ? fs
                .readFileSync(logFile, 'utf8')
                .split('\n')
                .filter((l) => l !== '')
            : [],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}
