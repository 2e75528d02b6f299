// A thread's scheduling priority, for work that must yield to the thread that sends: on Linux the
// nice value is per thread (setpriority on a thread id), so a record worker can run below the JS
// thread without touching the rest of the process. Raising one's own nice value needs no privilege.
import fs from 'node:fs';
import os from 'node:os';

/** The calling thread's id (Linux, from /proc/thread-self); null where the OS does not say. */
export function ownThreadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Raises the calling thread's nice value by `by` (to at most 19); the value it has then, or null where it cannot be set. */
export function lowerOwnPriority(by: number): number | null {
  const tid = ownThreadId();
  if (tid === null) return null;
  try {
    const now = os.getPriority(tid);
    const to = Math.min(19, now + by);
    if (to !== now) os.setPriority(tid, to);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
