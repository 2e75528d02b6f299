import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearPreviousRun } from '../../../src/run/profile/artifact-dir.js';

function tree(files: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-artifacts-'));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), 'old');
  }
  return dir;
}

function list(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe('clearPreviousRun', () => {
  it("removes servebench's exports, in the dir and in run, point and aggregate folders, and nothing else", async () => {
    const dir = tree([
      'records.jsonl',
      'profile_export.json',
      'profile_export.csv',
      'histograms.json',
      'sweep_summary.csv',
      'notes.txt',
      'run_1/records.jsonl',
      'run_2/profile_export.json',
      'run_2/mine.txt',
      'point-01-concurrency4/records.jsonl',
      'aggregate/profile_export_aggregate.json',
      'data/records.jsonl',
    ]);
    const removed = await clearPreviousRun(dir);
    expect(removed.sort()).toEqual(
      [
        'records.jsonl',
        'profile_export.json',
        'profile_export.csv',
        'histograms.json',
        'sweep_summary.csv',
        'run_1/records.jsonl',
        'run_2/profile_export.json',
        'point-01-concurrency4/records.jsonl',
        'aggregate/profile_export_aggregate.json',
      ].sort(),
    );
    // Emptied folders go; the user's files and folders stay.
    expect(list(dir)).toEqual(['data', 'data/records.jsonl', 'notes.txt', 'run_2', 'run_2/mine.txt']);
  });

  it('a missing or empty dir has nothing to remove', async () => {
    expect(await clearPreviousRun(path.join(os.tmpdir(), 'sb-no-such-dir-' + process.pid))).toEqual([]);
    expect(await clearPreviousRun(tree([]))).toEqual([]);
  });
});
