// Size modes (issue 12 items 1-2): huge events, endless streams, many events, absurd usage numbers.
// Every mode answers the requests after the first `bad` (default 1) with a good stream, so a test can
// check that the others succeed. Params: bad (how many requests get the hostile answer), size, events.
import { chunk, deltaEvent, endChunks, goodStream, sseHead } from './http.mjs';

/** True for the requests that get the hostile answer (the first `bad`, default 1). */
function hostile(state) {
  return state.requests <= Number(state.params.bad ?? 1);
}

/** Writes `total` bytes of `fill` (a string of one repeated ASCII char) in 64 KiB chunks, honouring backpressure. */
function writeFill(socket, total, fill, done) {
  const piece = Buffer.alloc(64 * 1024, fill);
  let left = total;
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, piece.length);
      left -= n;
      if (!chunk(socket, n === piece.length ? piece : piece.subarray(0, n))) {
        socket.once('drain', pump);
        return;
      }
    }
    done();
  };
  pump();
}

/** One content event whose content is `size` bytes of 'a', then [DONE]. */
function hugeEvent(socket, size) {
  sseHead(socket);
  chunk(socket, 'data: {"choices":[{"index":0,"delta":{"content":"');
  writeFill(socket, size, 'a', () => {
    chunk(socket, '"}}]}\n\n');
    chunk(socket, 'data: [DONE]\n\n');
    endChunks(socket);
  });
}

/** Bytes with no newline, forever (until the client goes away). */
function endless(socket) {
  sseHead(socket);
  chunk(socket, 'data: {"choices":[{"index":0,"delta":{"content":"');
  socket.on('error', () => {});
  writeFill(socket, Number.MAX_SAFE_INTEGER, 'a', () => {});
}

/** `events` short content events, then [DONE], written in chunks of many events each. */
function manyEvents(socket, events, content) {
  sseHead(socket);
  const batch = 1000;
  let i = 0;
  const pump = () => {
    while (i < events) {
      let s = '';
      for (let k = 0; k < batch && i < events; k++, i++) s += deltaEvent(content);
      if (!chunk(socket, s)) {
        socket.once('drain', pump);
        return;
      }
    }
    chunk(socket, 'data: [DONE]\n\n');
    endChunks(socket);
  };
  pump();
}

/** A short stream whose last event carries the usage object given (as JSON text). */
function usageStream(socket, usageJson) {
  sseHead(socket);
  for (let i = 0; i < 3; i++) chunk(socket, deltaEvent(`w${i} `));
  chunk(socket, `data: {"id":"h","object":"chat.completion.chunk","choices":[],"usage":${usageJson}}\n\n`);
  chunk(socket, 'data: [DONE]\n\n');
  endChunks(socket);
}

export const modes = {
  // size=N: the first `bad` requests get one content event of N bytes.
  'huge-event': {
    handle: (_req, conn, state) => (hostile(state) ? hugeEvent(conn.socket, Number(state.params.size)) : goodStream(conn.socket, 3)),
  },
  // The first `bad` requests get an endless body with no newline.
  'endless-no-newline': {
    handle: (_req, conn, state) => (hostile(state) ? endless(conn.socket) : goodStream(conn.socket, 3)),
  },
  // events=N (default 100000), content=TEXT (default 'w '): every request gets N content events of TEXT.
  'many-events': {
    handle: (_req, conn, state) => manyEvents(conn.socket, Number(state.params.events ?? 100000), state.params.content ?? 'w '),
  },
  // Every request's last event carries absurd usage counts (1e11, 1e300), so each record has them.
  'huge-usage': {
    handle: (_req, conn) =>
      usageStream(
        conn.socket,
        '{"prompt_tokens":1e300,"completion_tokens":100000000000,"total_tokens":1e300,"prompt_tokens_details":{"cached_tokens":100000000000}}',
      ),
  },
};
