// Harness self-measurement: how much the client itself lagged while it measured a server.
// Collected in every run and exported as `harness` in profile_export.json:
//   - event-loop delay (perf_hooks.monitorEventLoopDelay) and event-loop utilisation: how late and how
//     busy the JS thread was. With undici every chunk is stamped on that thread, so its delay is
//     stamp error; the native engine stamps on its own I/O threads and is not affected;
//   - send-schedule lag: start_ns − targeted_start_ns (rate and replay modes): requests sent late
//     lower the load the server actually saw;
//   - dispatch delay: start_ns − credit_issued_ns, from the scheduler's decision to the transport
//     taking the request up;
//   - CPU: user + system seconds of the whole process (every thread) over the run's wall time;
//   - native engine reads: the read-coalescing window (--read-coalesce-us), reads per event, and the
//     measured read delay (a read's stamp − when the I/O thread could first have read it): what
//     coalescing added to the stamps.
import { FloatColumn } from '../metrics/core/column.js';
import os from 'node:os';
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import type { RawRecord } from '../model/raw-record.js';
import type { PreconnectResult } from '../transport/types.js';
import { threadCpuBetween, threadSnapshot, type ThreadCpu } from './threads.js';

/** Above any of these the run warns that the harness, not the server, may shape the numbers. */
export interface HarnessThresholds {
  /** Event-loop delay p99, ms: stamp error for transports that stamp on the JS thread. */
  event_loop_delay_p99_ms: number;
  /** Send-schedule lag p99, ms. */
  send_schedule_lag_p99_ms: number;
  /** Dispatch delay p99, ms. */
  dispatch_delay_p99_ms: number;
  /** Share of the time the JS thread was busy (0..1). */
  event_loop_utilization: number;
  /** Native, kernel stamps: arrival lag p99, ms (how late the I/O threads read after bytes arrived). */
  arrival_lag_p99_ms: number;
}

export const DEFAULT_HARNESS_THRESHOLDS: Readonly<HarnessThresholds> = Object.freeze({
  event_loop_delay_p99_ms: 5,
  send_schedule_lag_p99_ms: 10,
  dispatch_delay_p99_ms: 10,
  event_loop_utilization: 0.9,
  arrival_lag_p99_ms: 5,
});

export interface DelayStats {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface HarnessReport {
  transport: string;
  /** Where chunks were stamped: the JS thread (undici) or the engine's I/O threads (native). */
  stamps_taken_on: 'js_thread' | 'io_thread';
  /** How late the JS event loop ran, beyond the sampling interval (ms). */
  event_loop_delay_ms: { p50: number; p99: number; max: number; mean: number; samples: number };
  /** Share of the wall time the JS thread was busy (0..1). */
  event_loop_utilization: number;
  /** start − targeted start (ms), for requests that had a target; null in closed loop. */
  send_schedule_lag_ms: DelayStats | null;
  /** start − credit issued (ms). */
  dispatch_delay_ms: DelayStats | null;
  cpu: {
    user_s: number;
    system_s: number;
    wall_s: number;
    /** (user + system) / wall: 1 = one core fully used (the process has several threads). */
    share_of_one_core: number;
    /** The same over every core of the machine (0..1). */
    share_of_machine: number;
    cores: number;
    /**
     * Linux: the same CPU by thread (harness/threads.ts), and per SSE event (µs): the JS thread,
     * the engine's I/O threads, the rest (record workers, GC, compiler).
     */
    threads?: ThreadCpu & { per_event_us: { main: number; io: number; other: number } | null };
  };
  /**
   * Native engine only: how its I/O threads were scheduled at the end of the run (SCHED_FIFO while
   * lightly loaded where allowed, else a raised or normal priority; see native/engine/engine_sched.h).
   */
  io_threads?: { realtime: number; raised: number; normal: number; realtime_demotions: number };
  /**
   * Native engine only, over the whole run: the configured read-coalescing window, reads per SSE
   * event, and per read its stamp − when the I/O thread could first have read it (the start of a
   * coalescing sleep, else the return of epoll_wait), µs: how long the I/O thread held off.
   * With kernel receive stamps, arrival_lag_us is per such read recv() return − the kernel's receive
   * time: how late the client read (waiting for a CPU, coalescing), a delay its stamps do not carry;
   * stamp_source says which stamps the chunks got ('kernel': every read had one, 'mixed', 'read').
   */
  reads?: {
    coalesce_window_us: number;
    reads: number;
    events: number;
    reads_per_event: number | null;
    /** Wake-ups that read (epoll_wait calls returning a ready socket) per event. */
    polls_per_event: number | null;
    coalesce_sleeps: number;
    read_delay_us: { mean: number; p50: number; p99: number; max: number; count: number };
    stamp_source: 'kernel' | 'mixed' | 'read';
    arrival_lag_us: { mean: number; p50: number; p99: number; max: number; count: number } | null;
  };
  /**
   * Requests sent a second time because the server closed their kept-alive connection before one
   * byte of the response (it never answered them); each is re-sent at most once. Both transports.
   */
  retries?: number;
  /**
   * --preconnect (native, closed loop): connections opened before the first request, and the ms
   * it took, outside every timed phase.
   */
  preconnect?: PreconnectResult;
  /**
   * The most finished records that waited at once for a record worker (token counts, metrics,
   * their records.jsonl line): each holds memory until its batch settles.
   */
  record_backlog_max?: number;
  /**
   * Records counted on the JS thread because the workers were the pipeline's bound behind
   * (run/pipeline/record-pipeline.ts RECORD_BACKLOG_MAX): memory stays bounded, and the sends slow instead.
   */
  records_counted_on_main?: number;
  thresholds: HarnessThresholds;
  warnings: string[];
}

/** The record workers' backlog into the report, with a warning when they fell so far behind that the JS thread counted. */
export function noteRecordBacklog(report: HarnessReport, max: number, workers: number, countedOnMain = 0): void {
  report.record_backlog_max = max;
  report.records_counted_on_main = countedOnMain;
  if (countedOnMain > 0)
    report.warnings.push(
      `harness: the record workers (${workers}) fell behind (up to ${max} finished records waited): ${countedOnMain} records were counted on the JS thread to keep memory bounded, which slowed the sends (raise --record-workers, or --use-server-token-count)`,
    );
}

/** What the monitor needs of a transport: its name, and the native engine's counters when it has them. */
export interface MonitoredTransport {
  readonly name: string;
  /** The native engine's --read-coalesce-us. */
  readonly readCoalesceUs?: number;
  stats?(): { realtime_threads?: number; raised_threads?: number; realtime_demotions?: number; [k: string]: unknown };
}

/** A growable column of delays, with its percentiles. */
class Column extends FloatColumn {
  constructor() {
    super(1024);
  }
  stats(): DelayStats | null {
    if (this.length === 0) return null;
    const s = this.view().slice().sort();
    const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
    return { count: s.length, p50: at(50), p90: at(90), p99: at(99), max: s[s.length - 1] };
  }
}

/** Sampling interval of the event-loop delay histogram (ms); its delays are reported beyond it. */
const RESOLUTION_MS = 5;

export class HarnessMonitor {
  private histogram: IntervalHistogram | null = null;
  private elu0: EventLoopUtilization | null = null;
  private cpu0: NodeJS.CpuUsage | null = null;
  private t0 = 0n;
  private threads0: ReturnType<typeof threadSnapshot> = null;
  private readonly lag = new Column();
  private readonly dispatch = new Column();
  private events = 0;

  private readonly transport: string;

  constructor(
    private readonly source: string | MonitoredTransport,
    private readonly thresholds: HarnessThresholds = DEFAULT_HARNESS_THRESHOLDS,
    private readonly ioThreads = 1,
  ) {
    this.transport = typeof source === 'string' ? source : source.name;
  }

  start(): this {
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.histogram.enable();
    this.elu0 = performance.eventLoopUtilization();
    this.cpu0 = process.cpuUsage();
    this.threads0 = threadSnapshot();
    this.t0 = process.hrtime.bigint();
    return this;
  }

  /** One finished request's stamps. */
  observe(raw: RawRecord): void {
    const c = raw.credit;
    this.dispatch.push(Number(raw.start_ns - c.credit_issued_ns) / 1e6);
    // With the native decode only undecided events come back as payloads; `decoded.events` counts them all.
    this.events += raw.decoded ? raw.decoded.events : (raw.event_ns?.length ?? 0);
    if (c.targeted_start_ns !== null) this.lag.push(Number(raw.start_ns - c.targeted_start_ns) / 1e6);
  }

  finish(): HarnessReport {
    const wallNs = Number(process.hrtime.bigint() - this.t0);
    const h = this.histogram;
    h?.disable();
    const beyond = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : 0);
    const samples = h?.count ?? 0;
    const loop = {
      p50: samples ? beyond(h!.percentile(50)) : 0,
      p99: samples ? beyond(h!.percentile(99)) : 0,
      max: samples ? beyond(h!.max) : 0,
      mean: samples ? beyond(h!.mean) : 0,
      samples,
    };
    const cpu = process.cpuUsage(this.cpu0 ?? undefined);
    const wall_s = wallNs / 1e9;
    const cores = os.availableParallelism?.() ?? os.cpus().length;
    const busy = (cpu.user + cpu.system) / 1e6;
    const report: HarnessReport = {
      transport: this.transport,
      stamps_taken_on: this.transport === 'native' ? 'io_thread' : 'js_thread',
      event_loop_delay_ms: loop,
      event_loop_utilization: this.elu0 ? performance.eventLoopUtilization(this.elu0).utilization : 0,
      send_schedule_lag_ms: this.lag.stats(),
      dispatch_delay_ms: this.dispatch.stats(),
      cpu: {
        user_s: cpu.user / 1e6,
        system_s: cpu.system / 1e6,
        wall_s,
        share_of_one_core: wall_s > 0 ? busy / wall_s : 0,
        share_of_machine: wall_s > 0 ? busy / wall_s / cores : 0,
        cores,
      },
      thresholds: { ...this.thresholds },
      warnings: [],
    };
    const threadsNow = this.threads0 ? threadSnapshot() : null;
    if (this.threads0 && threadsNow) {
      const t = threadCpuBetween(this.threads0, threadsNow);
      const per = (s: number) => (s * 1e6) / this.events;
      report.cpu.threads = { ...t, per_event_us: this.events > 0 ? { main: per(t.main_s), io: per(t.io_s), other: per(t.other_s) } : null };
    }
    const stats = typeof this.source === 'string' ? undefined : this.source.stats?.();
    if (stats && typeof stats.realtime_threads === 'number') {
      const realtime = stats.realtime_threads;
      const raised = stats.raised_threads ?? 0;
      report.io_threads = {
        realtime,
        raised,
        normal: Math.max(0, this.ioThreads - realtime - raised),
        realtime_demotions: stats.realtime_demotions ?? 0,
      };
    }
    if (stats && typeof stats.retries === 'number') report.retries = stats.retries;
    if (stats && typeof stats.reads === 'number' && typeof this.source !== 'string')
      report.reads = readsReport(this.source.readCoalesceUs ?? 0, stats, this.events);
    report.warnings = harnessWarnings(report);
    return report;
  }
}

/** The `reads` section from the engine's counters (ns → µs). */
function readsReport(windowUs: number, s: Record<string, unknown>, events: number): NonNullable<HarnessReport['reads']> {
  const num = (k: string) => (typeof s[k] === 'number' ? s[k] : 0);
  const reads = num('reads');
  const kernel = num('kernel_stamped_reads');
  return {
    coalesce_window_us: windowUs,
    reads,
    events,
    reads_per_event: events > 0 ? reads / events : null,
    polls_per_event: events > 0 ? num('polls') / events : null,
    coalesce_sleeps: num('coalesce_sleeps'),
    read_delay_us: {
      mean: num('read_delay_mean_ns') / 1e3,
      p50: num('read_delay_p50_ns') / 1e3,
      p99: num('read_delay_p99_ns') / 1e3,
      max: num('read_delay_max_ns') / 1e3,
      count: num('read_delay_count'),
    },
    stamp_source: kernel === 0 ? 'read' : kernel >= reads ? 'kernel' : 'mixed',
    arrival_lag_us:
      kernel === 0
        ? null
        : {
            mean: num('arrival_lag_mean_ns') / 1e3,
            p50: num('arrival_lag_p50_ns') / 1e3,
            p99: num('arrival_lag_p99_ns') / 1e3,
            max: num('arrival_lag_max_ns') / 1e3,
            count: kernel,
          },
  };
}

const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`;

/** One line per threshold crossed, saying what it means for this run's numbers. */
export function harnessWarnings(r: HarnessReport): string[] {
  const t = r.thresholds;
  const out: string[] = [];
  const loop = r.event_loop_delay_ms;
  if (loop.p99 > t.event_loop_delay_p99_ms) {
    out.push(
      r.stamps_taken_on === 'js_thread'
        ? `harness: the JS event loop ran late (p99 ${ms(loop.p99)}, max ${ms(loop.max)}); the ${r.transport} transport stamps chunks on that thread, so TTFT and ITL may be inflated by up to that much (try --transport native)`
        : `harness: the JS event loop ran late (p99 ${ms(loop.p99)}, max ${ms(loop.max)}); chunk stamps are taken on the engine's I/O threads and are not affected, but sends and record processing were delayed`,
    );
  }
  if (r.event_loop_utilization > t.event_loop_utilization) {
    out.push(
      `harness: the JS thread was busy ${(r.event_loop_utilization * 100).toFixed(0)}% of the run; the client may be the bottleneck`,
    );
  }
  const lag = r.send_schedule_lag_ms;
  if (lag && lag.p99 > t.send_schedule_lag_p99_ms) {
    out.push(
      `harness: requests went out behind their schedule (lag p99 ${ms(lag.p99)}, max ${ms(lag.max)}); the server saw less load than asked`,
    );
  }
  const d = r.dispatch_delay_ms;
  if (d && d.p99 > t.dispatch_delay_p99_ms) {
    out.push(`harness: requests waited between their credit and the transport (dispatch delay p99 ${ms(d.p99)}, max ${ms(d.max)})`);
  }
  const arrival = r.reads?.arrival_lag_us;
  if (arrival && arrival.p99 / 1e3 > t.arrival_lag_p99_ms) {
    out.push(
      `harness: the engine read p99 ${ms(arrival.p99 / 1e3)} after the bytes arrived (max ${ms(arrival.max / 1e3)}); each read keeps the kernel's arrival stamp, but events of one stream that queued in that time share the later one, so gaps shorter than that are not resolved (more cores, or --transport-threads N, let it read sooner)`,
    );
  }
  return out;
}
