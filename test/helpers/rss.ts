// Peak resident memory of a child process, read from /proc/<pid>/status (VmHWM, the kernel's own
// high-water mark) while it runs: pass `watch.onSpawn` to runCli, read `watch.peakMb()` after it exits.
import fs from 'node:fs';

export interface RssWatch {
  onSpawn(pid: number): void;
  /** The last high-water mark read, in MiB (0 if none was read). */
  peakMb(): number;
}

export function watchPeakRss(intervalMs = 25): RssWatch {
  let peakKb = 0;
  let timer: NodeJS.Timeout | null = null;
  return {
    onSpawn(pid) {
      const read = () => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
          if (m) peakKb = Math.max(peakKb, Number(m[1]));
        } catch {
          if (timer) clearInterval(timer);
        }
      };
      read();
      timer = setInterval(read, intervalMs);
      timer.unref();
    },
    peakMb: () => {
      if (timer) clearInterval(timer);
      return peakKb / 1024;
    },
  };
}
