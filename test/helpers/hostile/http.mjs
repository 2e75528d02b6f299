// Minimal HTTP/1.1 request framing and response writers for the hostile server (not a mode file).

/** Calls onRequest({method, path, headers, body}) for each request on the socket (keep-alive aware). */
export function parseRequests(socket, onRequest) {
  let buf = Buffer.alloc(0);
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1').split('\r\n');
      const [method, path] = head[0].split(' ');
      const headers = {};
      for (const line of head.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const len = Number(headers['content-length'] ?? 0);
      if (buf.length < end + 4 + len) return;
      const body = buf.subarray(end + 4, end + 4 + len).toString('utf8');
      buf = buf.subarray(end + 4 + len);
      onRequest({ method, path, headers, body });
    }
  });
}

/** The head of a 200 SSE response with chunked transfer encoding. */
export function sseHead(socket, extra = '') {
  socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n${extra}\r\n`);
}

/** One HTTP chunk. */
export function chunk(socket, data) {
  const b = Buffer.isBuffer(data) ? data : Buffer.from(data);
  if (b.length === 0) return true;
  return socket.write(Buffer.concat([Buffer.from(b.length.toString(16) + '\r\n'), b, Buffer.from('\r\n')]));
}

/** The last chunk. */
export function endChunks(socket) {
  socket.write('0\r\n\r\n');
}

/** A content delta event in the chat-completions shape. */
export function deltaEvent(content, extra = {}) {
  return `data: ${JSON.stringify({ id: 'h', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }], ...extra })}\n\n`;
}

/** A whole, well-formed short stream: n content events, then [DONE]. */
export function goodStream(socket, n = 3) {
  sseHead(socket);
  for (let i = 0; i < n; i++) chunk(socket, deltaEvent(`w${i} `));
  chunk(socket, 'data: [DONE]\n\n');
  endChunks(socket);
}
