// --transport undici|native|auto: which transport a run uses, and building it.
// The native engine speaks HTTP/1.1 over TCP or TLS to one origin; anything else (a proxy,
// credentials in the URL) is undici's. `auto` picks native whenever it can, https included.
import dns from 'node:dns/promises';
import net from 'node:net';
import { InvalidArgumentError } from '../errors.js';
import { native } from '../native.js';
import { capWaitMs } from '../timers.js';
import { NativeTransport } from './native.js';
import { DEFAULT_SIZE_CAPS, type SizeCaps, type StreamDecode, type Transport } from './types.js';
import { UndiciTransport } from './undici.js';
import { engineTls, NO_TLS_SETTINGS, type TlsSettings } from './tls.js';

export const TRANSPORT_KINDS = ['auto', 'undici', 'native'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

export interface TransportSettings {
  kind: TransportKind;
  baseUrl: string;
  /** Connection cap (the concurrency); null: as many as requests in flight (open-loop runs). */
  connections: number | null;
  requestTimeoutMs: number;
  /** --transport-threads: I/O threads of the native engine. */
  threads: number;
  /** --read-coalesce-us: the native engine's read coalescing window (0: eager). */
  readCoalesceUs?: number;
  /** --kernel-stamps: the native engine stamps plain-TCP reads with the kernel's receive time (default false). */
  kernelStamps?: boolean;
  /** Decode SSE payloads natively (RawRecord.decoded); absent: every payload comes back as a string. */
  decode?: StreamDecode;
  /** --max-response-bytes, --max-event-bytes; absent: the defaults. */
  limits?: SizeCaps;
  /** --ca-cert, --insecure, --client-cert, --client-key (https:// only); absent: verify against the system store. */
  tls?: TlsSettings;
}

export interface TransportChoice {
  name: 'undici' | 'native';
  /** Why native was not used (auto), or null. */
  reason: string | null;
  /** undici: the proxy its requests go through, if any. */
  proxy?: ProxySetting | null;
}

/** Whether `host` is exempted from proxying by a NO_PROXY list (curl's rules: suffix match, `*`). */
export function bypassesProxy(host: string, port: string, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1];
      entryPort = bracketed[2];
    } else if (entry.split(':').length === 2) {
      [entry, entryPort] = entry.split(':');
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    entry = entry.replace(/^\*?\./, '');
    if (h === entry || h.endsWith('.' + entry)) return true;
  }
  return false;
}

/** The name of the proxy variable that would apply to `url`, or null. Values are never echoed: they may hold credentials. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): string | null {
  const names =
    url.protocol === 'https:'
      ? ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy']
      : ['HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];
  const name = names.find((n) => (env[n] ?? '').trim() !== '');
  if (!name) return null;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return bypassesProxy(url.hostname, port, env.NO_PROXY ?? env.no_proxy) ? null : name;
}

/** A proxy that applies to a URL: the variable that names it and its URL (never logged: it may hold credentials). */
export interface ProxySetting {
  variable: string;
  uri: string;
}

const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks5:', 'socks:']);

/** The proxy the undici transport (and the preflight) uses for `url`, as HTTP_PROXY/ALL_PROXY/NO_PROXY say; a bad value is bad input. */
export function proxySetting(url: URL, env: NodeJS.ProcessEnv = process.env): ProxySetting | null {
  const variable = proxyFor(url, env);
  if (variable === null) return null;
  const uri = (env[variable] ?? '').trim();
  let parsed: URL | null;
  try {
    // curl's rule: a value without a scheme is an http:// proxy.
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) ? uri : `http://${uri}`);
  } catch {
    parsed = null;
  }
  if (parsed === null || !PROXY_PROTOCOLS.has(parsed.protocol) || parsed.hostname === '') {
    throw new InvalidArgumentError(`${variable}: not a proxy URL (expected http://, https:// or socks5://host:port)`);
  }
  return { variable, uri: parsed.href };
}

/** What keeps the native engine from serving `baseUrl`, or null when it can. */
export function nativeUnsupported(baseUrl: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const u = new URL(baseUrl);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${u.protocol}// URLs (it speaks HTTP/1.1 over TCP or TLS)`;
  if (u.username !== '' || u.password !== '') return 'credentials in the URL';
  const proxy = proxyFor(u, env);
  if (proxy !== null) return `a proxy (${proxy} is set)`;
  if (!native.Engine) return 'this build of the addon (it has no stream engine)';
  return null;
}

/** Resolves the transport for a run; `--transport native` with something it cannot serve is bad input. */
export function chooseTransport(kind: TransportKind, baseUrl: string, env: NodeJS.ProcessEnv = process.env): TransportChoice {
  if (kind === 'undici') return { name: 'undici', reason: null };
  const why = nativeUnsupported(baseUrl, env);
  if (why === null) return { name: 'native', reason: null };
  if (kind === 'native') {
    throw new InvalidArgumentError(`--transport native does not support ${why}; use --transport undici`);
  }
  return { name: 'undici', reason: why };
}

/**
 * The address the native engine connects to. A name may resolve to several addresses (localhost:
 * ::1 and 127.0.0.1) of which only one is listening, so each is tried in turn, IPv4 first; if none
 * answers, the first is used and the requests fail as connection errors, as with undici.
 */
export async function resolveTarget(baseUrl: string, probeTimeoutMs = 2000): Promise<string> {
  const u = new URL(baseUrl);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return host;
  let addrs: { address: string; family: number }[];
  try {
    addrs = await dns.lookup(host, { all: true });
  } catch {
    return host === 'localhost' ? '127.0.0.1' : '0.0.0.0';
  }
  addrs.sort((a, b) => a.family - b.family);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  for (const a of addrs) {
    if (await accepts(a.address, port, probeTimeoutMs)) return a.address;
  }
  return addrs[0]?.address ?? '0.0.0.0';
}

function accepts(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: address, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export async function createTransport(
  settings: TransportSettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ transport: Transport; choice: TransportChoice }> {
  const choice = chooseTransport(settings.kind, settings.baseUrl, env);
  const proxy = choice.name === 'undici' ? proxySetting(new URL(settings.baseUrl), env) : null;
  const common = {
    baseUrl: settings.baseUrl,
    connections: settings.connections,
    requestTimeoutMs: settings.requestTimeoutMs,
    decode: settings.decode,
    limits: settings.limits,
    tls: settings.tls ?? NO_TLS_SETTINGS,
  };
  if (choice.name === 'undici')
    return { transport: new UndiciTransport({ ...common, proxy: proxy?.uri ?? null }), choice: { ...choice, proxy } };
  const address = await resolveTarget(settings.baseUrl);
  return {
    transport: new NativeTransport({
      ...common,
      address,
      threads: settings.threads,
      readCoalesceUs: settings.readCoalesceUs ?? 0,
      kernelStamps: settings.kernelStamps ?? false,
      tls: new URL(settings.baseUrl).protocol === 'https:' ? engineTls(new URL(settings.baseUrl), common.tls, env) : undefined,
    }),
    choice,
  };
}

/** The transport flags of a run, as config/types.ts RunConfig holds them. */
export interface TransportConfig {
  readonly transport: TransportKind;
  readonly transport_threads: number;
  readonly request_timeout_s: number;
  readonly read_coalesce_us: number;
  readonly kernel_stamps: boolean;
  readonly max_response_bytes: number;
  readonly max_event_bytes: number;
  readonly tls: TlsSettings;
}

/** The run's transport as configured (--transport, --transport-threads, --read-coalesce-us); says why when auto falls back to undici. */
export async function openTransport(
  cfg: Pick<TransportConfig, 'transport' | 'transport_threads' | 'request_timeout_s'> &
    Partial<Pick<TransportConfig, 'read_coalesce_us' | 'kernel_stamps' | 'max_response_bytes' | 'max_event_bytes' | 'tls'>>,
  baseUrl: string,
  connections: number | null,
  log: (msg: string) => void,
  decode?: StreamDecode,
): Promise<Transport> {
  const { transport, choice } = await createTransport({
    kind: cfg.transport ?? 'auto',
    baseUrl,
    connections,
    // A timeout beyond MAX_WAIT_MS (31.7 years) is cut to it: the native engine's bound, and no run lasts that long.
    requestTimeoutMs: capWaitMs(cfg.request_timeout_s * 1000),
    threads: cfg.transport_threads ?? 1,
    readCoalesceUs: cfg.read_coalesce_us ?? 0,
    kernelStamps: cfg.kernel_stamps ?? false,
    limits: {
      maxResponseBytes: cfg.max_response_bytes ?? DEFAULT_SIZE_CAPS.maxResponseBytes,
      maxEventBytes: cfg.max_event_bytes ?? DEFAULT_SIZE_CAPS.maxEventBytes,
    },
    tls: cfg.tls ?? NO_TLS_SETTINGS,
    // SERVEBENCH_JS_DECODE=1: every payload through the endpoint adapter in JS (comparisons, diagnosis).
    decode: process.env.SERVEBENCH_JS_DECODE === '1' ? undefined : decode,
  });
  if (choice.reason !== null) log(`transport: undici (the native engine does not support ${choice.reason})`);
  if (choice.proxy) log(`transport: requests go through the proxy in ${choice.proxy.variable}`);
  return transport;
}
