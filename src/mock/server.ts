// The mock's HTTP layer: routing, body reading, fault selection, request recording.
// Usable in-process (tests, benchmarks) and as the `servebench mock` process.
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BadRequestError, MockStartError } from '../errors.js';
import { Clock } from './clock.js';
import { FakeDcgm } from './dcgm.js';
import { FaultPicker, sendHttpFault } from './faults.js';
import { errorBody } from './openai.js';
import { resolveMockOptions, type MockOptions } from './options.js';
import { RequestRecorder } from './recorder.js';
import { MEDIA_ROUTES, serveMedia } from './media.js';
import { MockServerMetrics } from './server-metrics.js';
import { planGeneration, type EndpointKind } from './request.js';
import { BodyJob, StreamJob, type ResponseContext } from './stream.js';
import { CapacityQueue } from './capacity.js';
import { tokenizeResponse } from './words.js';
import { MOCK_APIS } from './apis.js';
import { requestObject, type MockApi } from './shape.js';
import { attachRealtime } from './realtime.js';

export interface MockServer {
  /** e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  host: string;
  port: number;
  options: MockOptions;
  /** Stop listening, drop open connections (streams and hung requests), flush the request log. */
  close(): Promise<void>;
}

/** Request bodies above this get a 413; prompts are text, so this is far beyond any real one. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

function jsonResponse(status: number, body: string): { status: number; headers: OutgoingHttpHeaders; body: Buffer } {
  const buf = Buffer.from(body);
  return { status, headers: { 'content-type': 'application/json', 'content-length': buf.length }, body: buf };
}

function send(res: ServerResponse, r: { status: number; headers: OutgoingHttpHeaders; body: Buffer }): void {
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}

function sendError(res: ServerResponse, status: number, message: string, type: string): void {
  send(res, jsonResponse(status, errorBody(message, type, status)));
}

function sendMetrics(res: ServerResponse, lines: string[]): void {
  const body = Buffer.from(lines.join('\n') + '\n');
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-length': body.length });
  res.end(body);
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startMockServer(partial: Partial<MockOptions> = {}): Promise<MockServer> {
  const opts = resolveMockOptions(partial);
  const recorder = opts.recordRequests ? new RequestRecorder(opts.recordRequests) : null;
  const clock = new Clock();
  const dcgm = new FakeDcgm();
  const serverMetrics = new MockServerMetrics(opts.metricsFormat);
  const faults = new FaultPicker(opts);
  const capacity = new CapacityQueue(opts.maxConcurrent);
  let nextId = 0;

  // Constant responses are built once.
  const HEALTH = jsonResponse(200, '{"status":"ok"}');
  const created0 = Math.floor(Date.now() / 1000);
  const MODELS = jsonResponse(
    200,
    JSON.stringify({
      object: 'list',
      data: [{ id: opts.modelName, object: 'model', created: created0, owned_by: 'servebench-mock' }],
    }),
  );

  function generate(kind: EndpointKind, req: IncomingMessage, res: ServerResponse, tsNs: bigint, path: string, api?: MockApi): void {
    const parts: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else parts.push(b);
    });
    req.on('end', () => {
      const t0 = performance.now();
      if (tooBig) {
        recorder?.record(tsNs, 'POST', path, req.headers, null);
        sendError(res, 413, `request body over ${MAX_BODY_BYTES} bytes`, 'invalid_request_error');
        return;
      }
      const raw = parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch (err) {
        recorder?.record(tsNs, 'POST', path, req.headers, raw);
        sendError(res, 400, `invalid JSON body: ${(err as Error).message}`, 'invalid_request_error');
        return;
      }
      recorder?.record(tsNs, 'POST', path, req.headers, body);
      let plan;
      try {
        plan = api ? api.plan(requestObject(body), opts) : planGeneration(kind, body, opts);
      } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        sendError(res, 400, err.message, 'invalid_request_error');
        return;
      }
      const fault = faults.next();
      if (fault === 'http500' || fault === 'http429') return sendHttpFault(res, fault);
      if (fault === 'hang') return; // never answered; close() drops it
      const rid = req.headers['x-request-id'];
      // --max-concurrent: service (and its TTFT) starts when a slot is free (capacity.ts).
      capacity.admit(res, () => {
        const start = opts.maxConcurrent === 0 ? t0 : performance.now();
        dcgm.onGeneration(plan, opts);
        const metrics = serverMetrics.begin(plan.promptTokens, start);
        res.once('close', () => metrics.end());
        const ctx: ResponseContext = {
          res,
          plan,
          opts,
          t0: start,
          id: `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-mock${++nextId}`,
          created: Math.floor(Date.now() / 1000),
          fault,
          metrics,
          headers: typeof rid === 'string' ? { 'x-request-id': rid } : null,
        };
        if (api) ctx.shape = api.shape(plan, ctx.id, ctx.created, requestObject(body), path);
        clock.add(plan.stream ? new StreamJob(ctx, clock) : new BodyJob(ctx));
      });
    });
  }

  /** POST /tokenize (--tokenizer-kind words): answered at once, not on the generation clock. */
  function tokenize(req: IncomingMessage, res: ServerResponse, tsNs: bigint, path: string): void {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= MAX_BODY_BYTES) parts.push(b);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return sendError(res, 413, `request body over ${MAX_BODY_BYTES} bytes`, 'invalid_request_error');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
        recorder?.record(tsNs, 'POST', path, req.headers, body);
        send(res, jsonResponse(200, tokenizeResponse(body)));
      } catch (err) {
        const why = err instanceof BadRequestError ? err.message : `invalid JSON body: ${(err as Error).message}`;
        sendError(res, 400, why, 'invalid_request_error');
      }
    });
  }

  const server = createServer({ keepAlive: true, noDelay: true, requestTimeout: 0 }, (req, res) => {
    const tsNs = recorder ? process.hrtime.bigint() : 0n;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    if (method === 'POST' && path === '/v1/chat/completions') return generate('chat', req, res, tsNs, path);
    if (method === 'POST' && path === '/v1/completions') return generate('completions', req, res, tsNs, path);
    if (method === 'POST' && path === '/tokenize' && opts.tokenizerKind === 'words') return tokenize(req, res, tsNs, path);
    const api = MOCK_APIS.get(path);
    if (method === 'POST' && api) return generate('chat', req, res, tsNs, path, api);
    // Transcriptions, image and video generation (mock/media.ts).
    if (method === 'POST' && MEDIA_ROUTES.has(path)) return serveMedia(path, req, res, opts, faults);
    recorder?.record(tsNs, method, path, req.headers, null);
    req.resume(); // drain any body so keep-alive stays usable
    // /metrics: the fake DCGM exporter plus (except for TensorRT-LLM's own path) the server's metrics.
    if (path === '/metrics' && method === 'GET')
      return dcgm.serve(url, res, serverMetrics.path === '/metrics' ? serverMetrics.lines() : []);
    if (path === serverMetrics.path && method === 'GET') return sendMetrics(res, serverMetrics.lines());
    if (path === '/health' || path === '/v1/models') {
      if (method !== 'GET' && method !== 'HEAD') return sendError(res, 405, `${method} not allowed on ${path}`, 'invalid_request_error');
      return send(res, path === '/health' ? HEALTH : MODELS);
    }
    if (path === '/v1/chat/completions' || path === '/v1/completions' || api) {
      return sendError(res, 405, `${method} not allowed on ${path}`, 'invalid_request_error');
    }
    sendError(res, 404, `no route for ${method} ${path}`, 'not_found_error');
  });
  // Benchmarks hold connections open between requests; never close them from this side.
  server.keepAliveTimeout = 10 * 60_000;
  server.maxRequestsPerSocket = 0;
  // The OpenAI Realtime API over WebSocket (realtime.ts).
  const realtime = attachRealtime(server, opts);

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(new MockStartError(`mock server cannot listen on ${opts.host}:${opts.port}: ${err.code ?? err.message}`));
    };
    server.once('error', onError);
    server.listen(opts.port, opts.host, () => {
      server.off('error', onError);
      resolve();
    });
  }).catch(async (err) => {
    await recorder?.close();
    throw err;
  });

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: formatUrl(opts.host, port),
    host: opts.host,
    port,
    options: opts,
    close() {
      closing ??= new Promise<void>((resolve) => {
        clock.stop();
        realtime.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => recorder?.close());
      return closing;
    },
  };
}
