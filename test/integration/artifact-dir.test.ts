// Reusing an artifact dir (issue 12, item 9): the previous run's exports are removed before the new
// run and the removal is said in one line; files that are not servebench's stay.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readJsonl, runCli, tmpDir } from '../helpers/cli.js';

it("a reused dir keeps no record of the previous run beside the new summary, and the user's files", async () => {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, 'records.jsonl'), '{"x_request_id":"stale"}\n'.repeat(50));
  fs.mkdirSync(path.join(dir, 'run_1'));
  fs.writeFileSync(path.join(dir, 'run_1', 'records.jsonl'), '{"x_request_id":"stale"}\n');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
  const r = await runCli(['profile', '--request-count', '3', '--concurrency', '1', '--artifact-dir', dir, '--ui', 'none']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(`${dir} holds a previous run's exports: removed records.jsonl, run_1/records.jsonl (other files are kept)`);
  const recs = readJsonl(path.join(dir, 'records.jsonl'));
  expect(recs).toHaveLength(3);
  expect(recs.every((x) => x.x_request_id !== 'stale')).toBe(true);
  expect(fs.existsSync(path.join(dir, 'run_1'))).toBe(false);
  expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
});
