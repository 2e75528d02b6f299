// Modes for issue 14's server-metrics cases: Prometheus endpoints that misbehave.
import { goodStream } from './http.mjs';

function respond(socket, status, body) {
  const b = Buffer.from(body);
  socket.write(`HTTP/1.1 ${status}\r\ncontent-type: text/plain; version=0.0.4\r\ncontent-length: ${b.length}\r\n\r\n`);
  socket.write(b);
}

export const modes = {
  // Never answers a scrape.
  'metrics-hang': { handlesGet: true, handle: () => {} },
  // An LLM server (good streams) whose GET /metrics serves vllm:generation_tokens_total, growing by
  // 100 per scrape; after `resetAfter` (default 20) generation requests it restarts (a server
  // restart): …, 1000 + 100k, then 100, 200, … so the true increase stays 100 per scrape. The
  // scrape `hangAfter` (default 2) scrapes after the reset gets no answer (a scrape that times out).
  // Other GETs: /v1/models answered, anything else 404.
  'metrics-reset': {
    handlesGet: true,
    handle: (req, conn, state) => {
      state.posts ??= 0;
      state.scrapes ??= 0;
      if (req.method === 'POST') {
        state.posts++;
        return goodStream(conn.socket, 3);
      }
      if (req.path === '/v1/models') return respond(conn.socket, '200 OK', '{"object":"list","data":[{"id":"m","object":"model"}]}');
      if (req.path !== '/metrics') return respond(conn.socket, '404 Not Found', 'not found');
      const k = state.scrapes++;
      if (state.resetAt === undefined && state.posts >= Number(state.params.resetAfter ?? 20)) state.resetAt = k;
      if (state.resetAt !== undefined && k === state.resetAt + Number(state.params.hangAfter ?? 2)) return;
      const v = state.resetAt === undefined ? 1000 + 100 * k : 100 * (k - state.resetAt + 1);
      respond(
        conn.socket,
        '200 OK',
        `# HELP vllm:generation_tokens_total Number of generation tokens processed.\n# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total{model_name="m"} ${v}\n`,
      );
    },
  },
};
