// --config run.yaml: a file equivalent to a command line resolves to the same run config, the
// command line overrides the file, and a bad key or value is named with its file:line.
import fs from 'node:fs';
import path from 'node:path';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { InvalidFileError } from '../../../src/errors.js';
import { valueFlags } from '../../../src/cli/flags.js';
import { profileOptions } from '../../../src/cli/profile-options.js';
import { resolveProfileFlags } from '../../../src/cli/profile.js';
import { renderEffectiveConfig } from '../../../src/cli/print-config.js';
import { tmpDir } from '../../helpers/cli.js';

const argvOf = (args: string[]) =>
  yargs(args)
    .options(valueFlags({ ...profileOptions, config: { type: 'string' } }))
    .strict()
    .parseSync() as Record<string, unknown>;

function writeYaml(text: string): string {
  const file = path.join(tmpDir(), 'run.yaml');
  fs.writeFileSync(file, text);
  return file;
}

const CLI = [
  '--url',
  'http://127.0.0.1:8000/base',
  '--model',
  'm',
  '--concurrency',
  '1,4,16',
  '--request-count',
  '40',
  '--synthetic-input-tokens-mean',
  '300',
  '--osl',
  '20',
  '--no-streaming',
  '-H',
  'x-team:a',
  '-H',
  'x-run:b',
  '--extra-inputs',
  'temperature:0.5',
  '--goodput',
  'time_to_first_token:200',
  'inter_token_latency:20',
  '--endpoint-type',
  'completions',
  '--sweep-stop-on-slo',
  '--slo-attainment-fraction',
  '0.9',
  '--benchmark-grace-period',
  'inf',
  '--convention',
  'guidellm',
];

const YAML = `# the same run as CLI
url: http://127.0.0.1:8000/base
model: m
concurrency: [1, 4, 16]
request-count: 40
synthetic-input-tokens-mean: 300   # an alias of isl
osl: 20
streaming: false
header: ["x-team:a", "x-run:b"]
extra-inputs:
  - temperature:0.5
goodput: [time_to_first_token:200, inter_token_latency:20]
endpoint-type: completions
sweep-stop-on-slo: true
slo-attainment-fraction: 0.9
benchmark-grace-period: inf
convention: guidellm
`;

const withoutFile = <T extends { config_file: string | null }>(c: T) => ({ ...c, config_file: null });

describe('--config', () => {
  it('a YAML file equivalent to a command line gives the same resolved config', () => {
    const file = writeYaml(YAML);
    const fromCli = resolveProfileFlags(argvOf([...CLI])).cfg;
    const fromFile = resolveProfileFlags(argvOf(['--config', file])).cfg;
    expect(fromFile.config_file).toBe(file);
    expect(fromCli.config_file).toBeNull();
    expect(withoutFile(fromFile)).toEqual(withoutFile(fromCli));
    // Not vacuous: the file's values are in it.
    expect(fromFile.load.sweep).toEqual({ kind: 'concurrency', values: [1, 4, 16] });
    expect(fromFile.isl_mean).toBe(300);
    expect(fromFile.streaming).toBe(false);
    expect(fromFile.headers).toEqual({ 'x-team': 'a', 'x-run': 'b' });
  });

  it('a flag on the command line overrides the file, the rest of the file stays', () => {
    const file = writeYaml(YAML);
    const cfg = resolveProfileFlags(argvOf(['--config', file, '--osl', '7', '--streaming', '-H', 'x-only:c'])).cfg;
    expect(cfg.osl_mean).toBe(7);
    expect(cfg.streaming).toBe(true);
    expect(cfg.headers).toEqual({ 'x-only': 'c' }); // a repeatable flag given on the command line replaces the file's list
    expect(cfg.request_count).toBe(40);
  });

  it('--print-config output reads back to the same config, secrets redacted', () => {
    const file = writeYaml(`${YAML}api-key: sk-very-secret\n`);
    const { flags, cfg } = resolveProfileFlags(argvOf(['--config', file, '-H', 'authorization:Bearer tok-1']));
    const text = renderEffectiveConfig(flags, profileOptions, file);
    expect(text).not.toMatch(/sk-very-secret|tok-1/);
    expect(parse(text)['api-key']).toBe('<redacted>');
    const back = resolveProfileFlags(argvOf(['--config', writeYaml(text)])).cfg;
    expect({ ...withoutFile(back), api_key: null, headers: {} }).toEqual({ ...withoutFile(cfg), api_key: null, headers: {} });
  });

  it.each([
    ['request-count: 10\nconcurency: 4\n', /^run\.yaml:2: unknown key "concurency" \(did you mean concurrency\?\)$/],
    ['\n\nrequest-count: ten\n', /^run\.yaml:3: request-count: expected a number, got "ten"$/],
    ['ui: sometimes\n', /^run\.yaml:1: ui: expected one of auto, none, got "sometimes"$/],
    ['streaming: 1\n', /^run\.yaml:1: streaming: expected true or false, got 1$/],
    ['# c\nrequest-count: 10\nconcurrency: 0\n', /^run\.yaml:3: concurrency: must be at least 1, got 0$/],
    ['isl: 10\nisl: 20\n', /^run\.yaml:2: not valid YAML: Map keys must be unique/],
    ['isl: 10\nsynthetic-input-tokens-mean: 20\n', /^run\.yaml:2: "synthetic-input-tokens-mean" sets isl a second time$/],
    ['- isl\n', /^run\.yaml:1: expected a mapping of flag names to values$/],
    ['config: other.yaml\n', /^run\.yaml:1: unknown key "config"/],
  ])('%j is one error with file:line', (text, message) => {
    const file = writeYaml(text);
    let err: unknown = null;
    try {
      resolveProfileFlags(argvOf(['--config', file]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidFileError);
    const msg = (err as Error).message;
    expect(msg.startsWith(file)).toBe(true);
    expect(msg.slice(path.dirname(file).length + 1)).toMatch(message);
  });

  it('a bad value in the file overridden on the command line is no error', () => {
    const file = writeYaml('concurrency: 0\n');
    expect(resolveProfileFlags(argvOf(['--config', file, '--concurrency', '2'])).cfg.concurrency).toBe(2);
  });
});
