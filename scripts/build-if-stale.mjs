#!/usr/bin/env node
// Builds the addon (node-gyp rebuild) or the TypeScript (tsc) only when its inputs changed since the
// last build here. `npx servebench` run inside a clone installs that folder into npm's npx cache as a
// link, and npm runs a link's `prepare` and `install` scripts again in place (libnpmexec, npm 11): without
// this check a fresh clone built everything twice. The check is a hash of the inputs' contents (not
// mtimes: a checkout or a copy changes those without changing a byte), kept in a stamp file next to the
// outputs and written only after a build succeeds.
//   node scripts/build-if-stale.mjs addon|ts [--force] [--check] [--root DIR]
// --force  build even when fresh (npm run build)
// --check  build nothing: exit 0 when fresh, 1 when stale (and say why)
// --root   the package folder (default: this script's parent folder)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TARGETS = {
  addon: {
    inputs: ['binding.gyp', 'native'],
    // The addon's ABI is the running Node's: another Node version needs another build.
    extra: () => `${process.platform}-${process.arch}-node-abi${process.versions.modules}`,
    outputs: ['build/Release/servebench_native.node'],
    stamp: 'build/.servebench-stamp',
    command: () => ['node-gyp', ['rebuild'], { shell: process.platform === 'win32' }],
  },
  ts: {
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json'],
    extra: () => `typescript-${typescriptVersion()}`,
    outputs: ['dist/cli/main.js'],
    stamp: 'dist/.servebench-stamp',
    command: (root) => [process.execPath, [tscPath(root), '-p', path.join(root, 'tsconfig.build.json')], {}],
  },
};

function requireFrom(root) {
  return createRequire(path.join(root, 'package.json'));
}

function typescriptVersion() {
  try {
    return requireFrom(root)('typescript/package.json').version;
  } catch {
    return 'absent';
  }
}

function tscPath(dir) {
  try {
    return requireFrom(dir).resolve('typescript/bin/tsc');
  } catch {
    // A folder without its own node_modules (the tests' scratch packages): this script's own.
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  }
}

/** Every file under `rel` (a file or a folder), sorted, as paths relative to root. */
function listFiles(root, rel) {
  const abs = path.join(root, rel);
  let st;
  try {
    st = fs.statSync(abs);
  } catch {
    return [];
  }
  if (!st.isDirectory()) return [rel];
  const out = [];
  for (const e of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    out.push(...listFiles(root, path.join(rel, e.name)));
  }
  return out;
}

function inputsHash(root, target) {
  const h = createHash('sha256');
  h.update(target.extra());
  for (const rel of target.inputs.flatMap((i) => listFiles(root, i))) {
    h.update(`\0${rel.split(path.sep).join('/')}\0`);
    h.update(fs.readFileSync(path.join(root, rel)));
  }
  return h.digest('hex');
}

/** Null when the outputs are fresh, else why they are not. */
function staleReason(root, target, hash) {
  for (const o of target.outputs) if (!fs.existsSync(path.join(root, o))) return `${o} is missing`;
  let stamp;
  try {
    stamp = fs.readFileSync(path.join(root, target.stamp), 'utf8').trim();
  } catch {
    return `no stamp of a previous build (${target.stamp})`;
  }
  return stamp === hash ? null : 'its sources changed since the last build';
}

const args = process.argv.slice(2);
const rootIdx = args.indexOf('--root');
const name = args.filter((a, i) => !a.startsWith('--') && (rootIdx < 0 || i !== rootIdx + 1))[0];
const target = TARGETS[name];
if (!target) {
  console.error(`build-if-stale: expected "addon" or "ts", got ${name === undefined ? 'nothing' : `"${name}"`}`);
  process.exit(2);
}
const root = path.resolve(rootIdx >= 0 ? args[rootIdx + 1] : path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const hash = inputsHash(root, target);
const why = args.includes('--force') ? 'a build was asked for (--force)' : staleReason(root, target, hash);
if (args.includes('--check')) {
  console.log(why === null ? `${name}: up to date` : `${name}: stale: ${why}`);
  process.exit(why === null ? 0 : 1);
}
if (why === null) {
  console.log(`${name}: up to date, not rebuilt (scripts/build-if-stale.mjs)`);
  process.exit(0);
}
console.log(`${name}: building: ${why}`);
const [cmd, cmdArgs, opts] = target.command(root);
// The old stamp is removed first, so a failed build leaves none behind and the next install builds again.
fs.rmSync(path.join(root, target.stamp), { force: true });
const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts });
if (r.error) {
  console.error(`build-if-stale: could not run ${cmd}: ${r.error.message}`);
  process.exit(1);
}
if (r.status !== 0) process.exit(r.status ?? 1);
fs.mkdirSync(path.dirname(path.join(root, target.stamp)), { recursive: true });
fs.writeFileSync(path.join(root, target.stamp), hash + '\n');
