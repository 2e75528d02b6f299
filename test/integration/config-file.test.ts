// --config and --print-config through the real CLI: the export records the merged config, a flag
// overrides the file, a bad key is one line with file:line (exit 2), --print-config runs nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const SECRET = 'sk-config-SECRET-42';

describe('profile --config', () => {
  let mock: SpawnedMock;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1']);
    dir = tmpDir();
    file = path.join(dir, 'run.yaml');
    fs.writeFileSync(
      file,
      [
        '# a small run',
        `url: ${mock.url}`,
        'model: mock-model',
        'request-count: 6',
        'concurrency: 2',
        'isl: 32',
        'osl: 4',
        `api-key: ${SECRET}`,
        'header: ["x-trace:on"]',
        'ui: none',
        'export-level: records',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('runs with the file merged under the command line, and the export records the merged config', async () => {
    const out = path.join(dir, 'run');
    const r = await runCli(['profile', '--config', file, '--osl', '5', '--artifact-dir', out]);
    expect(r.code, r.stderr).toBe(0);
    const config = readJson(path.join(out, 'profile_export.json')).config;
    expect(config.config_file).toBe(file);
    expect(config.request_count).toBe(6);
    expect(config.concurrency).toBe(2);
    expect(config.osl_mean).toBe(5); // the command line won
    expect(config.api_key).toBe('<redacted>');
    expect(readJsonl(path.join(out, 'records.jsonl'))).toHaveLength(6);
    for (const f of fs.readdirSync(out)) expect(fs.readFileSync(path.join(out, f), 'utf8')).not.toContain(SECRET);
  });

  it('--print-config prints the effective YAML, secrets redacted, and sends nothing', async () => {
    // Nothing listens on port 9: a run would end in "cannot reach", exit 2.
    const r = await runCli(['profile', '--config', file, '--concurrency', '3', '--url', 'http://127.0.0.1:9', '--print-config']);
    expect(r.code, r.stderr).toBe(0);
    const printed = parse(r.stdout);
    expect(printed).toMatchObject({
      concurrency: 3,
      'request-count': 6,
      isl: 32,
      'api-key': '<redacted>',
      header: ['x-trace: <redacted>'],
    });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stderr).toBe('');
    // --url is repeatable (several targets), so it prints as a list.
    expect(printed.url).toEqual(['http://127.0.0.1:9']);
  });

  it.each([
    ['concurrency: 2\nrequest-cuont: 5\n', /^servebench: .*bad\.yaml:2: unknown key "request-cuont" \(did you mean request-count\?\)$/],
    ['concurrency: 2\n\nrequest-count: -1\n', /^servebench: .*bad\.yaml:3: request-count: must be at least 1, got -1$/],
  ])('%j: one line with file:line, exit 2', async (text, message) => {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, text);
    const r = await runCli(['profile', '--config', bad, '--url', 'http://127.0.0.1:9', '--ui', 'none']);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});
