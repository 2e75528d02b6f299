#!/usr/bin/env node
// A tiny HTTP proxy for tests, run as its own process: `node proxy-server.mjs [auth=user:pass] [log=FILE]`.
// Tunnels CONNECT requests and forwards absolute-form ones; appends `CONNECT host:port` or
// `FORWARD url` to FILE per request; with auth=, answers 407 to requests without that Basic
// Proxy-Authorization. Prints `listening PORT` once bound; exits when its stdin closes.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const params = Object.fromEntries(process.argv.slice(2).map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
const want = params.auth ? `Basic ${Buffer.from(params.auth).toString('base64')}` : null;
const log = (line) => params.log && fs.appendFileSync(params.log, line + '\n');
const authorized = (req) => want === null || req.headers['proxy-authorization'] === want;

const server = http.createServer((req, res) => {
  if (!authorized(req)) {
    res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    return;
  }
  log(`FORWARD ${req.url}`);
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const up = http.request(req.url, { method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.on('connect', (req, socket, head) => {
  socket.on('error', () => {});
  if (!authorized(req)) {
    socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  log(`CONNECT ${req.url}`);
  const [host, port] = req.url.split(/:(?=\d+$)/);
  const up = net.connect(Number(port), host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('close', () => up.destroy());
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
