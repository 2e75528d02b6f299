// src/native.ts is the only module that loads the addon; without a build it says how to get one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('native loader', () => {
  it('throws one error that says how to build the addon when it is missing', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-native-'));
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
    // native.js and the one module it imports (its error classes), without the addon next to them.
    for (const f of ['native.js', 'errors.js']) fs.copyFileSync(path.resolve('dist', f), path.join(root, 'dist', f));
    let stderr = '';
    try {
      execFileSync(
        process.execPath,
        [
          '-e',
          `import('${path.join(root, 'dist', 'native.js')}').catch(e => { console.error(e.code + ' ' + e.message); process.exit(3); })`,
        ],
        {
          env: { ...process.env, SERVEBENCH_NATIVE_PATH: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    } catch (err) {
      const e = err as { status: number; stderr: Buffer };
      expect(e.status).toBe(3);
      stderr = e.stderr.toString();
    }
    expect(stderr).toMatch(/^SB_NATIVE_MISSING the servebench native addon is not built/);
    expect(stderr).toMatch(/npm ci/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('loads the built addon', async () => {
    const { native } = await import('../../../src/native.js');
    expect(typeof native.frameSse).toBe('function');
  });
});
