// A download's progress bar on stderr (bytes, rate, ETA), drawn only on a terminal: a redirected
// stderr (a log file, CI) gets nothing, as huggingface_hub's tqdm bars are off there too.

const REDRAW_MS = 100;
const WIDTH = 24;

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

function duration(s: number): string {
  if (!Number.isFinite(s)) return '--';
  const t = Math.round(s);
  return t >= 3600
    ? `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`
    : t >= 60
      ? `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`
      : `${t}s`;
}

export interface Progress {
  add(n: number): void;
  done(): void;
}

const QUIET: Progress = { add: () => undefined, done: () => undefined };

/** The line for `done` of `total` bytes after `elapsedS` seconds (pure, for tests). */
export function progressLine(label: string, done: number, total: number | null, elapsedS: number): string {
  const rate = elapsedS > 0 ? done / elapsedS : 0;
  if (total === null || total <= 0) return `${label} ${bytes(done)} ${bytes(rate)}/s`;
  const frac = Math.min(1, done / total);
  const filled = Math.round(frac * WIDTH);
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${bytes(done)}/${bytes(total)} ${bytes(rate)}/s ETA ${duration(eta)}`;
}

/** A bar for one file, or a no-op when `enabled` is false or stderr is not a terminal. */
export function progressBar(label: string, total: number | null, enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled || !stream.isTTY) return QUIET;
  const t0 = performance.now();
  let done = 0;
  let last = 0;
  const draw = () => {
    const line = progressLine(label, done, total, (performance.now() - t0) / 1000);
    stream.write(`\r${line.slice(0, Math.max(20, (stream.columns || 100) - 1))}\x1b[K`);
  };
  return {
    add(n) {
      done += n;
      const now = performance.now();
      if (now - last >= REDRAW_MS) {
        last = now;
        draw();
      }
    },
    done() {
      draw();
      stream.write('\n');
    },
  };
}
