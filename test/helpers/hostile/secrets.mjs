// Secret-echoing modes: a server that repeats what it was sent (the Authorization header, every
// header) inside its answers, so the tests can check that no artifact or log line keeps a secret.
import { chunk, deltaEvent, endChunks, sseHead } from './http.mjs';

/** The request's headers as one string, e.g. "authorization=Bearer k; x-auth=…". */
function headerDump(req) {
  return Object.entries(req.headers)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

export const modes = {
  // 200 SSE: the Authorization header (and the bare credential after its scheme) inside content
  // events, then every header in one more event. require=VALUE: a request whose Authorization is
  // not VALUE gets a 401 (so a test sees that the credentials were sent).
  'echo-auth-sse': {
    handle(req, conn, state) {
      const auth = req.headers.authorization ?? '';
      if (state.params.require !== undefined && auth !== state.params.require) {
        conn.socket.write('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      sseHead(conn.socket);
      chunk(conn.socket, deltaEvent(`auth: ${auth}`));
      chunk(conn.socket, deltaEvent(auth.split(' ').slice(1).join(' ')));
      chunk(conn.socket, deltaEvent(`headers: ${headerDump(req)}`));
      chunk(conn.socket, 'data: [DONE]\n\n');
      endChunks(conn.socket);
    },
  },
  // Every request fails with a 401 whose JSON body echoes every header (an error body).
  'echo-headers-401': {
    handle(req, conn) {
      const body = JSON.stringify({ error: { message: `unauthorized: ${headerDump(req)}`, headers: req.headers } });
      conn.socket.write(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    },
  },
  // The preflight answer echoes the headers too (handlesGet): a secret must not leak from the log of it.
  'echo-headers-everywhere': {
    handlesGet: true,
    handle(req, conn, state) {
      if (req.method === 'GET') {
        const body = JSON.stringify({ object: 'list', data: [{ id: `m-${req.headers.authorization ?? ''}` }] });
        conn.socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        return;
      }
      modes['echo-auth-sse'].handle(req, conn, state);
    },
  },
};
