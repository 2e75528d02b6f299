// The manifests of `servebench kube`, checked against the Kubernetes API schemas (kubernetes-models),
// read back as kubectl's YAML 1.1 reader reads them, and their shell wrappers run for real.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { InvalidArgumentError } from '../../../src/errors.js';
import { buildManifests, manifestsYaml, MERGE_SCRIPT, SHARD_SCRIPT } from '../../../src/kube/manifests.js';
import { resolveKubeSpec, type KubeFlags } from '../../../src/kube/spec.js';

const NOW = Date.parse('2029-06-01T12:00:00.250Z');
const BASE: KubeFlags = { shards: '4', image: 'registry.example/servebench:0.1.0', 'start-at': '2030-01-01T00:00:00Z' };

function validate(obj: Record<string, unknown>): void {
  if (obj.kind === 'Job') new Job(obj).validate();
  else if (obj.kind === 'PersistentVolumeClaim') new PersistentVolumeClaim(obj).validate();
  else throw new Error(`unexpected kind ${String(obj.kind)}`);
}

type Container = { args: string[]; env: { name: string; value?: string; valueFrom?: unknown }[]; resources: unknown };
const container = (job: any): Container => job.spec.template.spec.containers[0];

/** The kubelet's $(VAR) expansion of command/args (undefined names left as written, $$ read as $). */
function kubeletExpand(s: string, env: Record<string, string>): string {
  return s.replace(/\$(\$|\(([^)]*)\))/g, (all, what: string, name?: string) =>
    what === '$' ? '$' : name !== undefined && name in env ? env[name] : all,
  );
}

describe('resolveKubeSpec', () => {
  it('takes a given --start-at verbatim, and names the run after it', () => {
    const s = resolveKubeSpec({ ...BASE, 'start-at': '1893456000' }, NOW);
    expect(s.start_at).toBe('1893456000');
    expect(s.start_epoch_s).toBe(1_893_456_000);
    expect(s.run).toBe('servebench-1893456000');
    expect(s.merge_wait_until_s).toBe(1_893_456_000 + 86_400);
  });

  it('defaults the start to now + --lead-time, to the second', () => {
    const s = resolveKubeSpec({ shards: '2', image: 'x', 'lead-time': '30' }, NOW);
    expect(s.start_at).toBe('2029-06-01T12:00:31Z');
    expect(resolveKubeSpec({ shards: '2', image: 'x' }, NOW).start_at).toBe('2029-06-01T12:02:01Z');
  });

  it('defaults the limits to the requests (whole CPUs unthrottled)', () => {
    expect(resolveKubeSpec({ ...BASE, cpu: '4', memory: '8Gi' }, NOW).resources).toEqual({
      requests: { cpu: '4', memory: '8Gi' },
      limits: { cpu: '4', memory: '8Gi' },
    });
  });

  it.each<[KubeFlags, RegExp]>([
    [{ ...BASE, shards: undefined }, /^--shards: is required/],
    [{ ...BASE, shards: '0' }, /^--shards: expected an integer from 1 to 100000, got "0"$/],
    [{ ...BASE, shards: 'four' }, /^--shards: expected an integer from 1 to 100000, got "four"$/],
    [{ ...BASE, shards: '2.5' }, /^--shards: expected an integer/],
    [{ ...BASE, shards: '100001' }, /^--shards: expected an integer/],
    [{ ...BASE, image: undefined }, /^--image: is required/],
    [{ ...BASE, image: ' ' }, /^--image: is required/],
    [{ ...BASE, 'start-at': '2020-01-01T00:00:00Z' }, /^--start-at: 2020-01-01T00:00:00Z is in the past/],
    [{ ...BASE, 'start-at': '2030-01-01 00:00' }, /^--start-at: expected an ISO 8601 time with a zone/],
    [{ ...BASE, 'start-at': '2030-01-01T00:00:00' }, /^--start-at: expected an ISO 8601 time with a zone/],
    [{ ...BASE, 'lead-time': '60' }, /^--lead-time: has no meaning with --start-at/],
    [{ ...BASE, 'start-at': undefined, 'lead-time': '0' }, /^--lead-time: expected an integer from 1/],
    [{ ...BASE, cpu: 'two' }, /^--cpu: expected a positive Kubernetes quantity/],
    [{ ...BASE, cpu: '0' }, /^--cpu: expected a positive Kubernetes quantity/],
    [{ ...BASE, cpu: '2', 'cpu-limit': '1500m' }, /^--cpu-limit: must be at least --cpu \(2\), got 1500m$/],
    [{ ...BASE, memory: '4Gi', 'memory-limit': '4G' }, /^--memory-limit: must be at least --memory/],
    [{ ...BASE, 'run-name': 'My_Run' }, /^--run-name: expected lower-case letters/],
    [{ ...BASE, 'run-name': 'a'.repeat(57) }, /^--run-name: expected .*at most 56 characters/],
    [{ ...BASE, pvc: 'Results' }, /^--pvc: expected lower-case/],
    [{ ...BASE, 'storage-class': 'fast' }, /^--storage-class: needs --pvc-size/],
    [{ ...BASE, 'pvc-size': 'big' }, /^--pvc-size: expected a positive Kubernetes quantity/],
    [{ ...BASE, 'api-key-secret': 'a:b:c' }, /^--api-key-secret: expected NAME or NAME:KEY/],
  ])('%j is bad input', (flags, message) => {
    let err: unknown;
    try {
      resolveKubeSpec(flags, NOW);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(message);
  });
});

describe('buildManifests', () => {
  it.each([1, 4, 7])('%i shards: every object is valid against the Kubernetes API schemas', (n) => {
    const spec = resolveKubeSpec(
      {
        ...BASE,
        shards: String(n),
        namespace: 'bench',
        'pvc-size': '20Gi',
        'storage-class': 'nfs',
        'api-key-secret': 'llm-key:token',
        'allow-partial': true,
      },
      NOW,
    );
    const objs = buildManifests(spec, ['--url', 'http://vllm:8000', '--concurrency', '64']);
    expect(objs.map((o) => o.kind)).toEqual(['PersistentVolumeClaim', 'Job', 'Job']);
    for (const o of objs) validate(o);
    const [, shards, merge] = objs as any[];
    expect(shards.spec).toMatchObject({ completionMode: 'Indexed', completions: n, parallelism: n });
    expect(shards.metadata.namespace).toBe('bench');
    expect(container(shards).env).toContainEqual({
      name: 'OPENAI_API_KEY',
      valueFrom: { secretKeyRef: { name: 'llm-key', key: 'token' } },
    });
    // The merge names every shard folder, so a missing one is named too.
    const dirs = Array.from({ length: n }, (_, i) => `/results/servebench-1893456000/shard-${i}`);
    expect(container(merge).args).toEqual([
      'servebench',
      'merge',
      ...dirs,
      '-o',
      '/results/servebench-1893456000/merged',
      '--allow-partial',
    ]);
  });

  it('the schema check is real: a wrong type fails it', () => {
    const [shards] = buildManifests(resolveKubeSpec(BASE, NOW), []) as any[];
    shards.spec.completions = '4';
    expect(() => validate(shards)).toThrow(/completions must be integer/);
  });

  it('each pod reads the profile flags as typed, through YAML 1.1 and the kubelet', () => {
    const tricky = [
      '--model',
      'on',
      '--extra-inputs',
      'ignore_eos:yes',
      '-H',
      'x-note: #1 ~ 0777',
      '--endpoint',
      '/v1/$(HOME)/$$x',
      '--osl',
      '1e3',
    ];
    const spec = resolveKubeSpec(BASE, NOW);
    const docs = parseAllDocuments(manifestsYaml(spec, buildManifests(spec, tricky)), { version: '1.1' });
    const shards = (docs as any[]).map((d) => d.toJS()).find((o) => o.metadata.name.endsWith('-shards'));
    validate(shards);
    const env = { JOB_COMPLETION_INDEX: '3', HOME: '/home/node' };
    const args = container(shards).args.map((a: string) => kubeletExpand(a, env));
    expect(args).toEqual([
      'servebench',
      'profile',
      '--shard-count',
      '4',
      '--start-at',
      '2030-01-01T00:00:00Z',
      '--artifact-dir',
      '/results/servebench-1893456000/shard-3',
      ...tricky,
    ]);
  });
});

function sh(
  script: string,
  args: string[],
  env: Record<string, string>,
): { child: ReturnType<typeof spawn>; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn('sh', ['-c', script, 'wrapper', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr }))) };
}

describe('the shard wrapper', () => {
  const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-kube-'));

  it("passes servebench's exit code on and leaves it as the shard's marker", async () => {
    const dir = path.join(tmp(), 'shard-2');
    const r = await sh(SHARD_SCRIPT, [process.execPath, '-e', 'process.exit(3)'], { SHARD_DIR: dir }).done;
    expect(r.code).toBe(3);
    expect(fs.readFileSync(path.join(dir, 'exit_code'), 'utf8')).toBe('3\n');
  });

  it('forwards SIGTERM to servebench (its graceful stop) and records how it ended', async () => {
    const dir = path.join(tmp(), 'shard-0');
    const ready = path.join(dir, '..', 'ready');
    const prog = `process.on('SIGTERM', () => process.exit(7)); require('fs').writeFileSync(${JSON.stringify(ready)}, ''); setInterval(() => {}, 1000);`;
    const { child, done } = sh(SHARD_SCRIPT, [process.execPath, '-e', prog], { SHARD_DIR: dir });
    while (!fs.existsSync(ready)) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    expect((await done).code).toBe(7);
    expect(fs.readFileSync(path.join(dir, 'exit_code'), 'utf8')).toBe('7\n');
  });
});

describe('the merge wait', () => {
  const echo = [process.execPath, '-e', 'process.stdout.write(process.argv.slice(1).join(" "))', 'merged'];

  it('runs the merge at once when every shard has its marker', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-kube-'));
    for (const i of [0, 1]) {
      fs.mkdirSync(path.join(dir, `shard-${i}`));
      fs.writeFileSync(path.join(dir, `shard-${i}`, 'exit_code'), '0\n');
    }
    const r = await sh(MERGE_SCRIPT, echo, { RESULTS_DIR: dir, SHARD_COUNT: '2', WAIT_UNTIL: String(Math.floor(Date.now() / 1000) + 3600) })
      .done;
    expect(r).toEqual({ code: 0, stderr: '' });
  });

  it('past the deadline, merges what is there and says which shard it stopped waiting for', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-kube-'));
    fs.mkdirSync(path.join(dir, 'shard-0'));
    fs.writeFileSync(path.join(dir, 'shard-0', 'exit_code'), '0\n');
    const r = await sh(MERGE_SCRIPT, [process.execPath, '-e', 'process.exit(5)'], { RESULTS_DIR: dir, SHARD_COUNT: '3', WAIT_UNTIL: '1' })
      .done;
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('servebench kube: shard 1 has not finished by the deadline; merging what is there\n');
  });
});
