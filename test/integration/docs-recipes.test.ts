// Every fenced block marked `sh runnable` in README.md and docs/*.md, run as a user would run it,
// against the mock as its own process (docs/README.md, "Runnable recipes"): a recipe that no longer
// works fails here.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVEBENCH_BIN, spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { tmpDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECIPE_TIMEOUT_MS = 120_000;

interface Recipe {
  where: string;
  script: string;
  writes: string[];
}

/** The `sh runnable` blocks of one markdown file, each named file:line. */
export function runnableBlocks(file: string, text: string): Recipe[] {
  const out: Recipe[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    const end = lines.findIndex((l, j) => j > i && l.trimEnd() === fence);
    if (end < 0) throw new Error(`${file}:${i + 1}: a fenced block that never closes`);
    if (open[2] === 'sh' && open[3].split(/\s+/).includes('runnable')) {
      const body = lines.slice(i + 1, end);
      const writes = body.map((l) => /^#\s*writes\s+(\S+)\s*$/.exec(l)?.[1]).filter((w): w is string => w !== undefined);
      out.push({ where: `${file}:${i + 1}`, script: body.join('\n') + '\n', writes });
    }
    i = end;
  }
  return out;
}

function docFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join('docs', f));
  return ['README.md', ...docs];
}

const recipes = docFiles().flatMap((f) => runnableBlocks(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));

// Guides that other branches of the same change write (issue 32); linked before they land. Empty this once they have.
const PENDING = new Set<string>();

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (outside fenced blocks), repeated ones numbered as GitHub does. */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const f = /^(`{3,})/.exec(line)?.[1];
    if (f !== undefined && (fence === null || line.trimEnd() === fence)) {
      fence = fence === null ? f : null;
      continue;
    }
    const h = fence === null ? /^#{1,6}\s+(.*)$/.exec(line) : null;
    if (!h) continue;
    const s = slug(h[1]);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

/** Every relative link of the README and docs/ that names a missing file or heading. */
function brokenLinks(): string[] {
  const broken: string[] = [];
  for (const f of docFiles()) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8').replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1];
      if (/^[a-z]+:/.test(link)) continue;
      const [file, anchor] = link.split('#');
      const target = file === '' ? f : path.normalize(path.join(path.dirname(f), file));
      if (!fs.existsSync(path.join(ROOT, target))) {
        if (!PENDING.has(target)) broken.push(`${f}: ${link} (no such file)`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(fs.readFileSync(path.join(ROOT, target), 'utf8')).has(anchor))
        broken.push(`${f}: ${link} (no such heading)`);
    }
  }
  return broken;
}

function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const file = path.join(cwd, '.recipe.sh');
    fs.writeFileSync(file, script);
    const child = spawn('bash', ['-e', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-8000)));
    child.stderr.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), RECIPE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('runnable recipes of the README and docs/', () => {
  let mock: SpawnedMock;
  let bin: string;

  beforeAll(async () => {
    // A quick mock, so the recipes' runs take little time.
    mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '0.5']);
    bin = tmpDir('servebench-recipes-bin-');
    const shim = path.join(bin, 'servebench');
    fs.writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SERVEBENCH_BIN)} "$@"\n`);
    fs.chmodSync(shim, 0o755);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('finds the recipes: the README holds at least five runnable blocks, each writing a file it names', () => {
    const readme = recipes.filter((r) => r.where.startsWith('README.md:'));
    expect(readme.length).toBeGreaterThanOrEqual(5);
    for (const r of readme) expect(r.writes.length, r.where).toBeGreaterThan(0);
  });

  it('every relative link of the README and docs/ names a file and heading that exist', () => {
    expect(brokenLinks()).toEqual([]);
    expect(slug('Kernel receive stamps (`--kernel-stamps`)')).toBe('kernel-receive-stamps---kernel-stamps');
  });

  it('reads a block as runnable only when its info string says so', () => {
    const text = ['```sh', 'false', '```', '```sh runnable', 'echo hi', '# writes a.txt', '```', '````md', '```sh runnable', '````'].join(
      '\n',
    );
    expect(runnableBlocks('x.md', text)).toEqual([{ where: 'x.md:4', script: 'echo hi\n# writes a.txt\n', writes: ['a.txt'] }]);
  });

  for (const recipe of recipes) {
    it(
      `${recipe.where} exits 0${recipe.writes.length ? ` and writes ${recipe.writes.join(', ')}` : ''}`,
      async () => {
        const cwd = tmpDir('servebench-recipe-');
        const env = { ...process.env, URL: mock.url, MOCK_URL: mock.url, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
        const { code, out } = await runScript(recipe.script, cwd, env);
        expect(code, `${recipe.where}:\n${out}`).toBe(0);
        for (const w of recipe.writes) expect(fs.existsSync(path.join(cwd, w)), `${recipe.where}: ${w} was not written\n${out}`).toBe(true);
        fs.rmSync(cwd, { recursive: true, force: true });
      },
      RECIPE_TIMEOUT_MS + 10_000,
    );
  }
});
