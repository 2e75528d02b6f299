// CPU time by kind of thread, from /proc/self/task (Linux): the JS thread, the native engine's I/O
// threads, and the rest (record workers, V8's garbage collector and compiler threads, libuv's pool).
// The JS thread is the one part of a run that no number of cores spreads out; with the others it
// says how far more cores would take a run (bench/e2e.js predicts a 16-core host from it).
import fs from 'node:fs';

export interface ThreadCpu {
  main_s: number;
  io_s: number;
  other_s: number;
}

/** The I/O threads' name (native/engine/engine.cc names them with pthread_setname_np). */
const IO_THREAD = 'sb-engine-io';
const TICKS_PER_S = 100;

type Snapshot = Map<number, { io: boolean; cpu_s: number }>;

/** Every thread's CPU seconds so far; null where /proc cannot tell (not Linux). */
export function threadSnapshot(): Snapshot | null {
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const out: Snapshot = new Map();
  for (const t of tids) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      // comm is in parentheses and may hold spaces; the fields after it are space-separated.
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
      if (Number.isFinite(cpu)) out.set(Number(t), { io: stat.slice(open + 1, close) === IO_THREAD, cpu_s: cpu });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** CPU by kind between two snapshots; a thread that ended before `end` is not counted. */
export function threadCpuBetween(start: Snapshot, end: Snapshot, mainTid = process.pid): ThreadCpu {
  const r: ThreadCpu = { main_s: 0, io_s: 0, other_s: 0 };
  for (const [tid, t] of end) {
    const d = t.cpu_s - (start.get(tid)?.cpu_s ?? 0);
    if (tid === mainTid) r.main_s += d;
    else if (t.io) r.io_s += d;
    else r.other_s += d;
  }
  return r;
}
