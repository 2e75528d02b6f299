// A throwaway CA, server certificates (one for localhost/127.0.0.1, one for another name) and a
// client certificate, made with the openssl CLI. Without the CLI the test fails loudly (.ci/run
// installs it), never skips.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface TestCerts {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  /** Valid, signed by the CA, but for other.example only. */
  otherCert: string;
  otherKey: string;
  clientCert: string;
  clientKey: string;
}

const OPENSSL = fs.existsSync('/usr/bin/openssl') ? '/usr/bin/openssl' : 'openssl';

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new Error(`the TLS tests need the openssl CLI (apt-get install openssl): openssl ${args[0]} failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

function leaf(dir: string, name: string, subject: string, san: string | null): void {
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

export function makeTestCerts(dir: string): TestCerts {
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
  const p = (f: string) => path.join(dir, f);
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
