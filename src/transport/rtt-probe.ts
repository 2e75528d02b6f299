// Network RTT calibration probes (--network-latency-automatic): a fresh TCP connection to the
// target host:port on an interval, timed from connect() to the handshake completing, then closed.
// The handshake is one network round trip with no server compute, so it isolates the network leg.
// Name resolution happens before the clock starts. Each probe becomes one line of a JSONL file;
// a failed probe is recorded as failed and does not count towards the mean.
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import { setLongInterval, type LongTimer } from '../timers.js';
import { ArtifactWriteError } from '../errors.js';

export interface ProbeResult {
  ok: boolean;
  rtt_ns: number | null;
  error: string | null;
}

/** One handshake to host:port, timed with hrtime; never rejects. */
export async function probeOnce(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  let address: string;
  try {
    address = net.isIP(host) ? host : (await dns.lookup(host)).address;
  } catch (err) {
    return { ok: false, rtt_ns: null, error: `lookup failed: ${(err as Error).message}` };
  }
  return new Promise<ProbeResult>((resolve) => {
    const t0 = process.hrtime.bigint();
    const socket = net.connect({ host: address, port });
    const done = (r: ProbeResult) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ ok: false, rtt_ns: null, error: `no handshake within ${timeoutMs} ms` }), timeoutMs);
    socket.once('connect', () => done({ ok: true, rtt_ns: Number(process.hrtime.bigint() - t0), error: null }));
    socket.once('error', (err) => done({ ok: false, rtt_ns: null, error: err.message }));
  });
}

export interface ProbeSummary {
  target: string;
  probes: number;
  ok: number;
  failed: number;
  /** Mean RTT over successful probes, ns; null when none succeeded. */
  mean_ns: number | null;
  min_ns: number | null;
  max_ns: number | null;
}

export interface RttProberOptions {
  host: string;
  port: number;
  intervalMs: number;
  /** JSONL output, one line per probe. */
  file: string;
  /** Per-probe limit; default min(interval, 5 s). */
  timeoutMs?: number;
}

/** Probes on an interval (one at a time; a slow probe delays the next) until stop(). */
export class RttProber {
  private readonly out: fs.WriteStream;
  private timer: LongTimer | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly rtts: number[] = [];
  private failed = 0;
  private writeError: Error | null = null;

  constructor(private readonly opts: RttProberOptions) {
    this.out = fs.createWriteStream(opts.file, { flags: 'w' });
    // A full disk: the first error is kept and raised by stop() as one line, never an unheard 'error' event.
    this.out.on('error', (err) => (this.writeError ??= err));
  }

  private get target(): string {
    return `${this.opts.host}:${this.opts.port}`;
  }

  /** First probe now, then every intervalMs. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.tick();
    // Probing must never keep the process alive on its own.
    this.timer = setLongInterval(() => this.tick(), this.opts.intervalMs).unref();
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    const timeout = this.opts.timeoutMs ?? Math.min(this.opts.intervalMs, 5000);
    this.running = probeOnce(this.opts.host, this.opts.port, timeout).then((r) => {
      this.record(r);
      this.running = null;
    });
  }

  private record(r: ProbeResult): void {
    if (r.ok && r.rtt_ns !== null) this.rtts.push(r.rtt_ns);
    else this.failed++;
    const rttMs = r.rtt_ns === null ? 'null' : String(r.rtt_ns / 1e6);
    this.out.write(
      `{"ts_ns":${process.hrtime.bigint()},"target":${JSON.stringify(this.target)},"ok":${r.ok},` +
        `"rtt_ms":${rttMs},"error":${JSON.stringify(r.error)}}\n`,
    );
  }

  /** Stop probing, wait for a probe in flight, close the file, and summarise. */
  async stop(): Promise<ProbeSummary> {
    this.stopped = true;
    this.timer?.clear();
    this.timer = null;
    await this.running;
    if (!this.writeError) await new Promise<void>((resolve) => this.out.end(() => resolve()));
    if (this.writeError) throw ArtifactWriteError.from(this.opts.file, this.writeError);
    const n = this.rtts.length;
    return {
      target: this.target,
      probes: n + this.failed,
      ok: n,
      failed: this.failed,
      mean_ns: n > 0 ? this.rtts.reduce((a, b) => a + b, 0) / n : null,
      min_ns: n > 0 ? Math.min(...this.rtts) : null,
      max_ns: n > 0 ? Math.max(...this.rtts) : null,
    };
  }
}
