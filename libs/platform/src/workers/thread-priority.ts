import * as fs from 'node:fs';
import * as os from 'node:os';

/**
 * Raises the nice value of the calling thread (never lowers it), so that when every core is busy the kernel runs
 * the threads that answer requests first. Linux only (a thread's id is its entry in /proc/thread-self, and
 * setpriority takes it); elsewhere, or if refused, it changes nothing and returns false.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (process.platform !== 'linux' || nice <= 0) return false;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (os.getPriority(tid) < nice) os.setPriority(tid, Math.min(19, nice));
    return true;
  } catch {
    return false;
  }
}

/** The nice value of the calling thread (Linux), for tests and diagnostics. */
export function threadNice(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  return os.getPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()));
}
