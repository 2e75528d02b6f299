// What events/s `servebench profile` could reach on a host with more cores, from the CPU per SSE
// event that each kind of thread spent in a measured run (harness.cpu.threads in profile_export.json,
// taken as marginal µs per event by bench/e2e-scale.js). Three bounds, the lowest wins:
//   - main: the JS thread is one thread, so at most one core: 1e6 / main_us events/s;
//   - io: N engine I/O threads, each at most one core: N × 1e6 / io_us;
//   - cores: the I/O threads and the rest (record workers, GC, compiler) share the cores the JS thread
//     leaves: (cores − 1) × 1e6 / (io_us + other_us).
// Pure: no I/O, no clock; bench/e2e-scale.js prints it, test/unit/bench/scale-model.test.ts checks it.

export const ASSUMPTIONS =
  'assumes each kind of thread keeps the µs/event of the run its split comes from (in a pinned row the I/O thread shares one core ' +
  'with the JS thread and is preempted by it; on a core of its own it can cost less, as the both-CPUs row shows, so the I/O bound from a ' +
  'pinned row is conservative); the JS thread gets a core of its own; the I/O work splits evenly over N threads with no per-event cost ' +
  'of sharing; I/O and the other threads (record workers, GC) share the cores left over; the server, the network and memory bandwidth keep up';

const LIMITS = {
  main: 'the JS main thread (one thread: more cores do not help)',
  io: 'the engine I/O threads (more --transport-threads help)',
  cores: 'the cores left beside the JS thread (I/O + record workers + GC)',
};

/**
 * Predicted events/s on `cores` cores with `ioThreads` I/O threads, from per-event CPU µs of each thread
 * kind ({ main_us, io_us, other_us }). Returns { events_per_s, limit, limit_text, bounds: { main, io, cores } }
 * (events/s each; Infinity where that kind spent nothing). Throws RangeError on input it cannot model.
 */
export function predict({ main_us, io_us, other_us }, { cores = 16, ioThreads = 1 } = {}) {
  for (const [name, v] of Object.entries({ main_us, io_us, other_us }))
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a finite number ≥ 0, got ${v}`);
  if (!Number.isInteger(cores) || cores < 2) throw new RangeError(`cores must be an integer ≥ 2, got ${cores}`);
  if (!Number.isInteger(ioThreads) || ioThreads < 1 || ioThreads > cores - 1)
    throw new RangeError(`ioThreads must be an integer from 1 to cores − 1 (${cores - 1}), got ${ioThreads}`);
  if (main_us + io_us + other_us === 0) throw new RangeError('no CPU per event measured: nothing to predict from');
  const per = (us, n) => (us > 0 ? (n * 1e6) / us : Infinity);
  const bounds = { main: per(main_us, 1), io: per(io_us, ioThreads), cores: per(io_us + other_us, cores - 1) };
  // Ties name the earlier kind: the JS thread first, since no flag moves it.
  const limit = /** @type {'main'|'io'|'cores'} */ (Object.keys(bounds).reduce((a, b) => (bounds[b] < bounds[a] ? b : a)));
  return { events_per_s: bounds[limit], limit, limit_text: LIMITS[limit], bounds };
}

/** The fewest I/O threads (1 … cores − 1) that reach the best predicted events/s, with that prediction. */
export function bestIoThreads(split, { cores = 16 } = {}) {
  let best = { ioThreads: 1, ...predict(split, { cores, ioThreads: 1 }) };
  for (let n = 2; n <= cores - 1; n++) {
    const p = predict(split, { cores, ioThreads: n });
    if (p.events_per_s > best.events_per_s * (1 + 1e-9)) best = { ioThreads: n, ...p };
  }
  return best;
}
