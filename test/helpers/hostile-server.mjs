#!/usr/bin/env node
// A hostile server for robustness tests, run as its own process: `node hostile-server.mjs MODE [key=value ...]`.
// It speaks raw TCP so a mode can break HTTP itself (bad status lines, bad chunks, lies in Content-Length).
// Prints `listening PORT` once bound. Modes live in ./hostile/*.mjs, one export `modes` per file, so each
// area adds its cases in its own file.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRequests } from './hostile/http.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const modes = {};
for (const f of fs.readdirSync(path.join(here, 'hostile')).sort()) {
  if (!f.endsWith('.mjs') || f === 'http.mjs') continue;
  const m = await import(path.join(here, 'hostile', f));
  for (const [name, mode] of Object.entries(m.modes ?? {})) {
    if (modes[name]) throw new Error(`hostile mode ${name} defined twice (${f})`);
    modes[name] = mode;
  }
}

const [modeName, ...rest] = process.argv.slice(2);
const mode = modes[modeName];
if (!mode) {
  process.stderr.write(`hostile-server: unknown mode ${modeName}; modes: ${Object.keys(modes).sort().join(', ')}\n`);
  process.exit(2);
}
const params = Object.fromEntries(rest.map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
// Shared across connections: modes that act on the Nth request count here.
const state = { requests: 0, params };

const server = net.createServer((socket) => {
  socket.on('error', () => {});
  const conn = { socket, requests: 0 };
  if (mode.onConnection) mode.onConnection(conn, state);
  parseRequests(socket, (req) => {
    conn.requests++;
    // The preflight (GET /v1/models) gets a plain answer unless the mode takes it over.
    if (req.method === 'GET' && !mode.handlesGet) return answerModels(socket);
    state.requests++;
    mode.handle(req, conn, state);
  });
});
server.listen(Number(params.port ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
// The test's process owns us: exit with it.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

function answerModels(socket) {
  const body = JSON.stringify({ object: 'list', data: [{ id: 'hostile', object: 'model', owned_by: 'test' }] });
  socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}
