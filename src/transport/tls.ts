// TLS settings shared by both transports and the preflight (--ca-cert, --insecure, --client-cert,
// --client-key): what the native engine's OpenSSL client loads (file paths), what undici's
// connector takes (contents), and how a TLS failure is named in a record (subtype `tls`, a reason).
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { EngineTlsOptions } from '../native.js';
import type { RecordError } from '../model/raw-record.js';

/** --ca-cert, --insecure, --client-cert, --client-key: TLS for https:// URLs, on either transport (transport/tls.ts). */
export interface TlsSettings {
  /** --insecure / -k: no certificate verification. */
  readonly insecure: boolean;
  /** --ca-cert: extra trusted CAs (PEM file), on top of the system store and NODE_EXTRA_CA_CERTS. */
  readonly ca_cert: string | null;
  /** --client-cert / --client-key: mTLS (PEM file paths; the key's contents are never copied anywhere). */
  readonly client_cert: string | null;
  readonly client_key: string | null;
  /** With --insecure: the warning printed at start, repeated here so the export's config carries it. */
  readonly warning: string | null;
}

export const NO_TLS_SETTINGS: TlsSettings = { insecure: false, ca_cert: null, client_cert: null, client_key: null, warning: null };

/** The system CA bundle, where the distribution keeps one (SSL_CERT_FILE first, as OpenSSL reads it). */
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

function systemBundle(env: NodeJS.ProcessEnv): string | undefined {
  const own = env.SSL_CERT_FILE;
  if (own && fs.existsSync(own)) return own;
  return SYSTEM_BUNDLES.find((f) => fs.existsSync(f));
}

/** SNI and the name checked against the certificate: the URL's host, brackets off. */
function serverName(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * The native engine's TLS options. Node's OpenSSL may be built with a directory other than the
 * distribution's, so the system bundle is passed explicitly beside SSL_CTX_set_default_verify_paths.
 */
export function engineTls(url: URL, s: TlsSettings, env: NodeJS.ProcessEnv = process.env): EngineTlsOptions {
  const extra = extraCaFile(env);
  const system = systemBundle(env);
  return {
    servername: serverName(url),
    verify: !s.insecure,
    ...(s.ca_cert ? { caFile: s.ca_cert } : {}),
    ...(extra ? { extraCaFile: extra } : {}),
    ...(system ? { systemCaFile: system } : {}),
    ...(s.client_cert ? { certFile: s.client_cert } : {}),
    ...(s.client_key ? { keyFile: s.client_key } : {}),
  };
}

function extraCaFile(env: NodeJS.ProcessEnv): string | null {
  const f = env.NODE_EXTRA_CA_CERTS;
  return f && fs.existsSync(f) ? f : null;
}

/** undici's connect options for an https:// origin (also the preflight's). Key contents stay in memory only. */
export function undiciTls(url: URL, s: TlsSettings): tls.ConnectionOptions {
  if (url.protocol !== 'https:') return {};
  const name = serverName(url);
  const out: tls.ConnectionOptions = {
    rejectUnauthorized: !s.insecure,
    ALPNProtocols: ['http/1.1'],
    ...(net.isIP(name) ? {} : { servername: name }),
  };
  // `ca` replaces Node's default store, so the defaults (with NODE_EXTRA_CA_CERTS) go in too. One
  // secure context for every connection: given as `ca`/`cert`/`key`, each tls.connect would parse
  // the whole store again (tens of ms of JS thread per connection, seconds at 1,024 streams).
  if (s.ca_cert || s.client_cert || s.client_key) {
    const extra = extraCaFile(process.env);
    out.secureContext = tls.createSecureContext({
      ...(s.ca_cert
        ? { ca: [...tls.rootCertificates, ...(extra ? [fs.readFileSync(extra, 'latin1')] : []), fs.readFileSync(s.ca_cert, 'latin1')] }
        : {}),
      ...(s.client_cert ? { cert: fs.readFileSync(s.client_cert) } : {}),
      ...(s.client_key ? { key: fs.readFileSync(s.client_key) } : {}),
    });
  }
  return out;
}

const UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** The plain reason of a Node/undici TLS failure code, or null when the code is not a TLS one. */
export function tlsReasonOfCode(code: string): string | null {
  if (UNKNOWN_CA.has(code)) return 'unknown CA';
  if (code === 'CERT_HAS_EXPIRED') return 'expired';
  if (code === 'CERT_NOT_YET_VALID') return 'not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'hostname mismatch';
  if (code.startsWith('ERR_SSL_')) return code.slice('ERR_SSL_'.length).toLowerCase().replace(/_/g, ' ');
  if (code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) return code.toLowerCase().replace(/_/g, ' ');
  return null;
}

/** The reason in a native engine message ("tls: unknown CA (unable to get local issuer certificate)"), or null. */
export function tlsReasonOfMessage(message: string): string | null {
  const m = /^tls: ([^(]+?)(?: \(|$)/.exec(message);
  return m ? m[1] : null;
}

/** Marks a connection error record as a TLS failure (subtype and reason), if it is one. */
export function withTlsSubtype(error: RecordError, reason: string | null): RecordError {
  if (reason === null || error.type !== 'connection') return error;
  return { ...error, subtype: 'tls', reason };
}

/** Verification reasons: the ones that mean no request can connect (preflight exit 2). */
export const VERIFY_REASONS = new Set(['unknown CA', 'expired', 'not yet valid', 'hostname mismatch', 'verification failed', 'revoked']);
