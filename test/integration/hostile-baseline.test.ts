// The hostile server's control case: a well-behaved stream passes every invariant on both transports.
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants, spawnHostile } from '../helpers/hostile.js';

describe('hostile server, control case', () => {
  it.each(['native', 'undici'])('a good stream on %s keeps every invariant', async (transport) => {
    const h = await spawnHostile('good');
    try {
      const dir = tmpDir();
      const r = await runCli([
        'profile',
        '--url',
        h.url,
        '--transport',
        transport,
        '--request-count',
        '6',
        '--concurrency',
        '2',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ]);
      const { json } = expectRunInvariants(r, dir, { secrets: ['hostile-secret'] });
      expect(json.counts).toEqual({ issued: 6, succeeded: 6, errored: 0, cancelled: 0 });
    } finally {
      await h.stop();
    }
  });
});
