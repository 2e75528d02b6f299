// Issue 12 item 7, SSE and HTTP framing: an `event: error` event and malformed HTTP end as error
// records of the same type on both transports, and the run goes on to write every export.
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants, spawnHostile } from '../helpers/hostile.js';

const SECRET = 'sk-protocol-secret';
const TRANSPORTS = ['native', 'undici'] as const;

/** One run of 4 requests against `url` on `transport`. */
async function profile(url: string, transport: string) {
  const dir = tmpDir();
  const r = await runCli([
    'profile',
    '--url',
    url,
    '--transport',
    transport,
    '--api-key',
    SECRET,
    '--request-count',
    '4',
    '--concurrency',
    '2',
    '--artifact-dir',
    dir,
    '--ui',
    'none',
  ]);
  return { r, dir };
}

// mode, params, the error type every request must end with, and the message it must carry.
const CASES: [string, Record<string, string>, string, RegExp][] = [
  ['event-error', { payload: 'json' }, 'sse_error', /^model overloaded, try later$/],
  ['event-error', { payload: 'message' }, 'sse_error', /^model overloaded, try later$/],
  ['event-error', { payload: 'text' }, 'sse_error', /^model overloaded, try later$/],
  ['bad-status-line', {}, 'parse_error', /status/i],
  ['bad-chunk', {}, 'parse_error', /chunk/i],
  ['content-length-conflict', {}, 'parse_error', /content-length/i],
  // A body cut short of its Content-Length by a close is the connection's failure, not a parse error.
  ['content-length-mismatch', {}, 'connection', /closed/i],
];

describe('hostile server, protocol gaps (issue 12 item 7)', () => {
  it.each(CASES)(
    '%s %j is %s on both transports',
    async (mode, params, type, message) => {
      const h = await spawnHostile(mode, params);
      try {
        const runs = await Promise.all(TRANSPORTS.map((t) => profile(h.url, t)));
        const types = runs.map(({ r, dir }, i) => {
          // Every request failed: exit code 1, the report still written.
          const { recs, json } = expectRunInvariants(r, dir, { code: 1, secrets: [SECRET] });
          expect(json.counts, TRANSPORTS[i]).toEqual({ issued: 4, succeeded: 0, errored: 4, cancelled: 0 });
          for (const rec of recs) {
            expect(rec.status, TRANSPORTS[i]).toBe('error');
            expect(rec.error.message, TRANSPORTS[i]).toMatch(message);
          }
          return recs.map((rec) => rec.error.type as string);
        });
        expect(types[0]).toEqual(Array(4).fill(type));
        expect(types[1], 'undici types it as native does').toEqual(types[0]);
      } finally {
        await h.stop();
      }
      // Two CLI runs at once: generous on a loaded CI host.
    },
    120_000,
  );
});
