// One build (issue 31): `npx servebench` inside a clone installs the clone into npm's npx cache as a
// link, and npm runs the link's `install` and `prepare` scripts again in place. Both go through
// scripts/build-if-stale.mjs, which skips node-gyp and tsc when the inputs' hash matches the stamp of
// the last build. Checked on scratch packages (a one-file addon, a one-file TypeScript program) with
// the real node-gyp and tsc, so the repository's own build is never touched.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/build-if-stale.mjs');
// node-gyp from the devDependencies (npm puts its own on PATH for lifecycle scripts).
const PATH = `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`;

function build(target: 'addon' | 'ts', root: string, ...flags: string[]): { code: number | null; out: string; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [SCRIPT, target, '--root', root, ...flags], { encoding: 'utf8', env: { ...process.env, PATH } });
  return { code: r.status, out: r.stdout + r.stderr, ms: performance.now() - t0 };
}

const mtime = (f: string) => fs.statSync(f).mtimeMs;

describe('package.json', () => {
  it('install and prepare build through build-if-stale.mjs, which the published files carry', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.install).toBe('node scripts/build-if-stale.mjs addon');
    expect(pkg.scripts.prepare).toBe('node scripts/build-if-stale.mjs ts');
    expect(pkg.files).toContain('scripts/build-if-stale.mjs');
  });
});

describe('build-if-stale ts', () => {
  // Retried once: it times the skip.
  it('builds once, skips while the sources are unchanged, and builds again when one changes', { timeout: 120_000, retry: 1 }, () => {
    const dir = tmpDir('servebench-build-ts-');
    fs.mkdirSync(path.join(dir, 'src/cli'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext' } }));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.build.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: 'src', outDir: 'dist' }, include: ['src'] }),
    );
    const src = path.join(dir, 'src/cli/main.ts');
    const out = path.join(dir, 'dist/cli/main.js');
    fs.writeFileSync(src, 'export const answer: number = 41;\n');

    const first = build('ts', dir);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/ts: building: dist\/cli\/main\.js is missing/);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/answer = 41/);
    expect(build('ts', dir, '--check').code).toBe(0);

    const before = mtime(out);
    const again = build('ts', dir);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/ts: up to date, not rebuilt/);
    expect(mtime(out)).toBe(before);
    // A node start and a hash of the sources: well under a second even on a loaded host.
    expect(again.ms).toBeLessThan(1000);

    fs.writeFileSync(src, 'export const answer: number = 42;\n');
    const check = build('ts', dir, '--check');
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/ts: stale: its sources changed/);
    const rebuilt = build('ts', dir);
    expect(rebuilt.code, rebuilt.out).toBe(0);
    expect(rebuilt.out).toMatch(/ts: building: its sources changed/);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/answer = 42/);
  });

  it('a failed build leaves no stamp, so the next one builds again', () => {
    const dir = tmpDir('servebench-build-ts-');
    fs.mkdirSync(path.join(dir, 'src/cli'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'tsconfig.build.json'),
      JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist', strict: true } }),
    );
    fs.writeFileSync(path.join(dir, 'src/cli/main.ts'), 'export const n: number = "not a number";\n');
    const r = build('ts', dir);
    expect(r.code).not.toBe(0);
    expect(fs.existsSync(path.join(dir, 'dist/.servebench-stamp'))).toBe(false);
    expect(build('ts', dir, '--check').code).toBe(1);
  }, 120_000);
});

describe('build-if-stale addon', () => {
  // Retried once: it times the skip.
  it(
    'runs node-gyp once, skips while native/ is unchanged, and runs it again when a source changes',
    { timeout: 300_000, retry: 1 },
    () => {
      const dir = tmpDir('servebench-build-addon-');
      fs.mkdirSync(path.join(dir, 'native'));
      fs.writeFileSync(
        path.join(dir, 'binding.gyp'),
        JSON.stringify({ targets: [{ target_name: 'servebench_native', sources: ['native/addon.c'] }] }),
      );
      const addonSource = (n: number) =>
        `#include <node_api.h>\nstatic napi_value Init(napi_env env, napi_value exports) {\n  napi_value v;\n  napi_create_int32(env, ${n}, &v);\n  napi_set_named_property(env, exports, "answer", v);\n  return exports;\n}\nNAPI_MODULE(NODE_GYP_MODULE_NAME, Init)\n`;
      fs.writeFileSync(path.join(dir, 'native/addon.c'), addonSource(41));
      const out = path.join(dir, 'build/Release/servebench_native.node');
      const load = () => spawnSync(process.execPath, ['-p', `require(${JSON.stringify(out)}).answer`], { encoding: 'utf8' }).stdout.trim();

      const first = build('addon', dir);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toMatch(/addon: building/);
      expect(load()).toBe('41');

      const before = mtime(out);
      const again = build('addon', dir);
      expect(again.code, again.out).toBe(0);
      expect(again.out).toMatch(/addon: up to date, not rebuilt/);
      expect(again.out).not.toMatch(/gyp/);
      expect(mtime(out)).toBe(before);
      expect(again.ms).toBeLessThan(1000);

      fs.writeFileSync(path.join(dir, 'native/addon.c'), addonSource(42));
      const rebuilt = build('addon', dir);
      expect(rebuilt.code, rebuilt.out).toBe(0);
      expect(rebuilt.out).toMatch(/addon: building: its sources changed/);
      expect(load()).toBe('42');
    },
  );
});
