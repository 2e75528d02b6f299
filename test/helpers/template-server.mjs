// A tiny server that is not OpenAI-shaped, run as its own process for the template endpoint's
// tests: POST /gen streams {"outputs":[{"text":…}]} events (or one {"result":{"text":…}} body),
// POST /flat streams {"token":{"text":…}}, and POST /v1/chat/completions streams chat chunks, all
// with the same timing (--ttft-ms, --itl-ms), so a template run and a chat run can be compared.
// The token count is the body's params.n (template) or max_tokens (chat). Prints its URL.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((kv) => kv.trim().split(/\s+/)),
);
const TTFT = Number(args['ttft-ms'] ?? 20);
const ITL = Number(args['itl-ms'] ?? 10);

function stream(res, n, event, final) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  // Absolute due times (TTFT, then ITL apart): a late timer does not push the later tokens back.
  const t0 = performance.now();
  let i = 0;
  const next = () => {
    res.write(`data: ${JSON.stringify(event(i))}\n\n`);
    if (++i < n) setTimeout(next, Math.max(0, t0 + TTFT + i * ITL - performance.now()));
    else {
      if (final) res.write(`data: ${JSON.stringify(final)}\n\n`);
      res.end('data: [DONE]\n\n');
    }
  };
  setTimeout(next, TTFT);
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ id: 'custom-model' }] }));
    return;
  }
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const b = JSON.parse(body);
    // One cl100k token each.
    const word = (i) => (i === 0 ? 'hello' : ' hello');
    if (req.url === '/v1/chat/completions') {
      const n = b.max_tokens ?? 8;
      stream(res, n, (i) => ({ choices: [{ index: 0, delta: { content: word(i) } }] }), {
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: n, total_tokens: n + 3 },
      });
      return;
    }
    const n = b.params?.n ?? 8;
    const usage = { meta: { usage: { prompt_tokens: 3, completion_tokens: n, total_tokens: n + 3 } } };
    if (req.url === '/flat') return stream(res, n, (i) => ({ token: { text: word(i) } }), usage);
    if (!b.params?.stream) {
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ outputs: [{ text: Array.from({ length: n }, (_, i) => word(i)).join('') }], ...usage }));
        },
        TTFT + ITL * (n - 1),
      );
      return;
    }
    stream(res, n, (i) => ({ outputs: [{ text: word(i) }] }), usage);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
