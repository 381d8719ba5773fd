/**
 * The machine's speed during a run: a child process that, on each message, does a fixed piece of work (gzip,
 * gunzip, split and JSON.parse of the same synthetic events) and answers with the CPU milliseconds its main thread
 * spent on it. CPU time, so waiting for a core does not count; if it grows during a run, the machine got slower
 * (another tenant, throttling), not Vigil. A process of its own, so the bench's event loop is never blocked by it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CLOCK_TICKS_PER_SECOND, ticksOf } from './proc-stat';

/** Events per pass and passes per measurement: about a third of a second of work. */
const EVENTS = 20_000;
const PASSES = 24;

function mainThreadCpuMs(): number {
  return (ticksOf(fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')) / CLOCK_TICKS_PER_SECOND) * 1000;
}

function referenceBody(): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    lines.push(JSON.stringify({ srcIP: `10.20.${(i >> 8) & 255}.${i & 255}`, srcPort: 40_000 + (i % 20_000), query: `host${i % 997}.example${i % 101}.com`, qtype: i % 3 ? 'A' : 'AAAA' }));
  }
  return gzipSync(lines.join('\n') + '\n');
}

function measure(body: Buffer): number {
  const before = mainThreadCpuMs();
  for (let pass = 0; pass < PASSES; pass++) {
    for (const line of gunzipSync(body).toString('utf8').split('\n')) if (line) JSON.parse(line);
  }
  return mainThreadCpuMs() - before;
}

/** The parent's handle on the child. */
export class ReferenceWork {
  private constructor(private readonly child: ChildProcess) {}

  static start(): ReferenceWork {
    const child = fork(__filename, ['--child'], { execArgv: ['-r', path.resolve(__dirname, '../../tools/register.cjs')], stdio: 'ignore' });
    return new ReferenceWork(child);
  }

  /** CPU ms of one measurement. */
  measure(): Promise<number> {
    return new Promise((resolve, reject) => {
      // Both listeners go once either fires: a run measures every minute, and listeners left behind pile up.
      const onMessage = (ms: unknown) => {
        this.child.off('error', onError);
        resolve(Number(ms));
      };
      const onError = (error: Error) => {
        this.child.off('message', onMessage);
        reject(error);
      };
      this.child.once('message', onMessage);
      this.child.once('error', onError);
      this.child.send('measure');
    });
  }

  stop(): void {
    this.child.kill();
  }
}

if (process.argv.includes('--child')) {
  const body = referenceBody();
  measure(body); // warm-up: the first pass also compiles the code it runs
  process.on('message', () => process.send?.(measure(body)));
}
