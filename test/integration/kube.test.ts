// `servebench kube` run as a child process: its output for 4 shards against a golden file (and the
// Kubernetes API schemas), bad input as one line and exit code 2, and the Dockerfile it relies on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GOLDEN = path.join(ROOT, 'test/fixtures/kube/shards-4.yaml');
// A fixed --start-at is used verbatim, so the output is the same on every run.
const KUBE = ['kube', '--shards', '4', '--image', 'registry.example/servebench:0.1.0', '--start-at', '2030-01-01T00:00:00Z'];
const PROFILE = [
  '--url',
  'http://vllm.llm.svc:8000',
  '--model',
  'meta-llama/Llama-3.1-8B-Instruct',
  '--concurrency',
  '256',
  '--request-count',
  '20000',
];

describe.concurrent('servebench kube --shards 4', () => {
  it('prints the golden manifests, each valid against the Kubernetes API schemas', async () => {
    const args = [...KUBE, '--pvc', 'bench-results', '--pvc-size', '50Gi', '--api-key-secret', 'llm-api-key', ...PROFILE, '--streaming'];
    const r = await runCli(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, r.stdout);
    expect(r.stdout).toBe(fs.readFileSync(GOLDEN, 'utf8'));
    const docs = parseAllDocuments(r.stdout, { version: '1.1' }) as any[];
    expect(docs.map((d) => d.errors)).toEqual([[], [], []]);
    const [pvc, shards, merge] = docs.map((d) => d.toJS());
    new PersistentVolumeClaim(pvc).validate();
    new Job(shards).validate();
    new Job(merge).validate();
    expect(shards.spec.template.spec.containers[0].args.slice(-PROFILE.length - 1)).toEqual([...PROFILE, '--streaming']);
  });

  it('without --url, says each shard would benchmark its own mock', async () => {
    const r = await runCli([...KUBE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('servebench: no --url: each shard would benchmark its own built-in mock\n');
    expect(r.stdout).toMatch(/^# servebench kube: run servebench-1893456000, 4 shard\(s\)/);
  });
});

// The rest of the bad input is checked in-process (test/unit/kube/, test/unit/cli/kube.test.ts); these go through the CLI's one-line report.
describe.concurrent('bad input: one line, exit code 2', () => {
  it.each([
    [['kube', '--shards', '0', '--image', 'i'], /^servebench: --shards: expected an integer from 1 to 100000, got "0"$/],
    [['kube', '--shards', '2'], /^servebench: --image: is required/],
    [[...KUBE, '--start-at', '2031-01-01T00:00:00Z'], /^servebench: --start-at: given more than once$/],
    [[...KUBE, '--api-key', 'sk-secret'], /^servebench: --api-key: would be written into the manifest in clear/],
    [[...KUBE, '--endpoint-type', 'foo'], /^servebench: --endpoint-type: expected one of chat, completions, [a-z_, ]+, got "foo"$/],
  ])('%j', async (args, message) => {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toContain('sk-secret');
  });
});

// kubectl's own reader (YAML 1.1, then the API types' JSON): --local reads the file and contacts no cluster.
describe("kubectl's reading of the golden manifests", () => {
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
  if (!kubectl) console.warn("SKIPPED: kubectl is not installed; the golden manifests are not read by kubectl's decoder in this run");
  it.skipIf(!kubectl)('gives the same objects as the YAML, every arg a string', () => {
    const r = spawnSync('kubectl', ['label', '--local', '-f', GOLDEN, 'checked=yes', '-o', 'json'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // One JSON object per manifest, printed one after another.
    const objs = r.stdout.split(/(?<=^\})\n(?=\{)/m).map((j) => JSON.parse(j));
    const golden = (parseAllDocuments(fs.readFileSync(GOLDEN, 'utf8'), { version: '1.1' }) as any[]).map((d) => d.toJS());
    expect(objs.map((o) => o.kind)).toEqual(['PersistentVolumeClaim', 'Job', 'Job']);
    for (const [i, o] of objs.entries()) {
      delete o.metadata.labels.checked;
      expect(o).toEqual(golden[i]);
    }
  });
});

describe('the Dockerfile', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const instructions = dockerfile
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.trim());

  it('builds on the official Node 20 image with npm ci and runs servebench', () => {
    const froms = instructions.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const f of froms) expect(f).toMatch(/^FROM node:20(-[a-z]+)*( AS \w+)?$/);
    expect(instructions.some((l) => /^RUN npm ci\b/.test(l))).toBe(true);
    expect(instructions.at(-2)).toBe('ENTRYPOINT ["servebench"]');
    // Everything it copies is in the repo, and .dockerignore keeps none of it out.
    const ignored = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    for (const l of instructions.filter((i) => /^COPY (?!--from)/.test(i)))
      for (const src of l.split(/\s+/).slice(1, -1)) {
        expect(fs.existsSync(path.join(ROOT, src)), src).toBe(true);
        expect(ignored, src).not.toContain(src);
      }
    // The manifests run the pods as uid 1000, the image's own user.
    expect(instructions).toContain('USER node');
  });

  const hadolint = spawnSync('hadolint', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!hadolint) console.warn('SKIPPED: hadolint is not installed (not on npm or Debian); the Dockerfile is not linted in this run');
  it.skipIf(!hadolint)('passes hadolint', () => {
    const r = spawnSync('hadolint', ['--failure-threshold', 'warning', path.join(ROOT, 'Dockerfile')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr, 'hadolint').toBe('');
    expect(r.status).toBe(0);
  });
});
