// Protocol-gap modes (issue 12 item 7): SSE error events, malformed HTTP framing, interim 1xx
// responses, idle keep-alive closes, and a path log for base URLs with a query string.
import fs from 'node:fs';
import { chunk, deltaEvent, endChunks, goodStream, sseHead } from './http.mjs';

/** The `event: error` event's data for each `payload=` choice. */
const ERROR_PAYLOADS = {
  json: JSON.stringify({ error: { message: 'model overloaded, try later', type: 'server_error' } }),
  message: JSON.stringify({ message: 'model overloaded, try later' }),
  text: 'model overloaded, try later',
  empty: '',
};

/** Arms (or re-arms) the idle timer of a connection: closed `ms` after its last response. */
function armIdle(conn, ms) {
  clearTimeout(conn.idleTimer);
  conn.idleTimer = setTimeout(() => conn.socket.end(), ms);
}

export const modes = {
  // One content event, then an SSE error event (`event: error`) and the end of the stream.
  'event-error': {
    handle: (_req, conn, state) => {
      const s = conn.socket;
      sseHead(s);
      chunk(s, deltaEvent('partial '));
      const data = ERROR_PAYLOADS[state.params.payload ?? 'json'];
      chunk(s, data === '' ? 'event: error\ndata\n\n' : `event: error\ndata: ${data}\n\n`);
      chunk(s, 'data: [DONE]\n\n');
      endChunks(s);
    },
  },
  // A status line that is not HTTP.
  'bad-status-line': {
    handle: (_req, conn) => conn.socket.end('HTTP/1.1 abc Nope\r\ncontent-length: 0\r\n\r\n'),
  },
  // A chunk-size line that is not hex, after one good chunk.
  'bad-chunk': {
    handle: (_req, conn) => {
      const s = conn.socket;
      sseHead(s);
      chunk(s, deltaEvent('a '));
      s.end('zz\r\ndata: {}\n\n\r\n');
    },
  },
  // A Content-Length the body never reaches: the server closes after part of it.
  'content-length-mismatch': {
    handle: (_req, conn) => {
      const body = deltaEvent('a ') + deltaEvent('b ');
      conn.socket.end(
        `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(body) + 500}\r\n` +
          `connection: close\r\n\r\n${body}`,
      );
    },
  },
  // Two Content-Length headers that disagree.
  'content-length-conflict': {
    handle: (_req, conn) => {
      const body = deltaEvent('a ') + 'data: [DONE]\n\n';
      const n = Buffer.byteLength(body);
      conn.socket.end(
        `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${n}\r\ncontent-length: ${n + 1}\r\n\r\n${body}`,
      );
    },
  },
  // An unsolicited `100 Continue` (and, with `early=1`, a `103 Early Hints`) before the 200.
  // `split=1` sends the interim head in its own write, a few ms before the rest.
  'continue-100': {
    handle: (_req, conn, state) => {
      const s = conn.socket;
      let interim = 'HTTP/1.1 100 Continue\r\n\r\n';
      if (state.params.early === '1') interim += 'HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n';
      if (state.params.split === '1') {
        s.write(interim);
        setTimeout(() => goodStream(s, 3), 5);
        return;
      }
      s.cork();
      s.write(interim);
      goodStream(s, 3);
      s.uncork();
    },
  },
  // Keep-alive connections closed after `ms` (default 50) idle. `race=1` also drops a request that
  // arrives on a reused connection unanswered, closing it, as if the idle close had crossed it on the
  // wire: the deterministic form of the race.
  'idle-close': {
    onConnection: (conn) => {
      conn.socket.on('close', () => clearTimeout(conn.idleTimer));
    },
    handle: (_req, conn, state) => {
      clearTimeout(conn.idleTimer);
      if (state.params.race === '1' && conn.requests > 1) {
        state.dropped = (state.dropped ?? 0) + 1;
        conn.socket.destroy();
        return;
      }
      goodStream(conn.socket, 3);
      armIdle(conn, Number(state.params.ms ?? 50));
    },
  },
  // A good stream; every request line (`METHOD PATH`) is appended to the file `log=`.
  'query-echo': {
    handlesGet: true,
    handle: (req, conn, state) => {
      if (state.params.log) fs.appendFileSync(state.params.log, `${req.method} ${req.path}\n`);
      if (req.method === 'GET') {
        const body = JSON.stringify({ object: 'list', data: [{ id: 'hostile', object: 'model', owned_by: 'test' }] });
        conn.socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        return;
      }
      goodStream(conn.socket, 3);
    },
  },
};
