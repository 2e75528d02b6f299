// A throwaway CA, server certificates (one for localhost/127.0.0.1, one for another name) and a
// client certificate, made with the openssl CLI: for the TLS tests (test/helpers/tls-certs.ts
// re-exports it) and the HTTPS section of the harness benchmark (bench/https.js). Without the CLI
// it throws loudly (.ci/run installs it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const OPENSSL = fs.existsSync('/usr/bin/openssl') ? '/usr/bin/openssl' : 'openssl';

function openssl(dir, args) {
  try {
    execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new Error(`TLS certificates need the openssl CLI (apt-get install openssl): openssl ${args[0]} failed: ${err.message}`, {
      cause: err,
    });
  }
}

function leaf(dir, name, subject, san) {
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  const ext = path.join(dir, `${name}.ext`);
  fs.writeFileSync(ext, san ? `subjectAltName=${san}\n` : 'extendedKeyUsage=clientAuth\n');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-extfile',
    ext,
  ]);
}

/** Makes the CA and certificates in `dir`; returns their paths. */
export function makeTestCerts(dir) {
  fs.mkdirSync(dir, { recursive: true });
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=servebench test CA',
  ]);
  leaf(dir, 'server', '/CN=localhost', 'DNS:localhost,IP:127.0.0.1');
  leaf(dir, 'other', '/CN=other.example', 'DNS:other.example');
  leaf(dir, 'client', '/CN=servebench client', null);
  const p = (f) => path.join(dir, f);
  return {
    dir,
    ca: p('ca.pem'),
    serverCert: p('server.pem'),
    serverKey: p('server.key'),
    otherCert: p('other.pem'),
    otherKey: p('other.key'),
    clientCert: p('client.pem'),
    clientKey: p('client.key'),
  };
}
