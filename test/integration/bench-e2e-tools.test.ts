// Smoke test of the end-to-end bench's C tools (bench/e2e.js builds them with cc): the minimal epoll
// reader streams from the real fast mock and reports one JSON line, and the rusage wrapper reports
// the reader's CPU and the pid it ran as. Figures are not asserted, only that they are measured.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTools, lastJsonLine } from '../../bench/e2e.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';

describe('bench e2e tools', () => {
  let mock: SpawnedMock;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-tools-'));
    mock = await spawnMock(['--fast', '--stamp-events', '--ttft-ms', '0', '--itl-ms', '1']);
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the C reader counts every event and stamps each against sb_send_ns; rusage reports its CPU', () => {
    const tools = buildTools(dir);
    const ru = path.join(dir, 'ru.json');
    const port = new URL(mock.url).port;
    const out = execFileSync(
      tools.rusage,
      [ru, tools.epoll_reader, '--port', port, '--concurrency', '4', '--requests', '12', '--osl', '8'],
      { encoding: 'utf8' },
    );
    const j = lastJsonLine(out) as Record<string, any>;
    expect(j).toMatchObject({ requests: 12, errors: 0, concurrency: 4 });
    // The mock's stream: the role chunk, 8 tokens, [DONE]; all but [DONE] carry a send stamp.
    expect(j.events).toBe(12 * 10);
    expect(j.stamp_error_ms.count).toBe(12 * 9);
    expect(j.stamp_error_ms.p50).toBeGreaterThanOrEqual(0);
    expect(j.server_itl_ms_p50).toBeGreaterThan(0.5);
    const usage = JSON.parse(readFileSync(ru, 'utf8'));
    expect(usage.exit).toBe(0);
    expect(usage.user_s + usage.sys_s).toBeGreaterThan(0);
    expect(usage.maxrss_kib).toBeGreaterThan(0);
    expect(existsSync(`${ru}.pid`)).toBe(true);
  });

  it('the C reader refuses an unknown option with exit code 2', () => {
    const tools = buildTools(dir);
    let status: number | null = null;
    try {
      execFileSync(tools.epoll_reader, ['--nope', '1'], { stdio: 'pipe' });
    } catch (err) {
      status = (err as { status: number }).status;
    }
    expect(status).toBe(2);
  });
});
