import { parentPort, workerData } from 'node:worker_threads';
import type { PoolMessage, RuntimeMessage, TaskContext, TaskHandler, WorkerBoot } from './worker-protocol';

/**
 * Runs inside a worker thread of a {@link WorkerPool} (loaded by its bootstrap, never imported by other code):
 * loads the task module once, then handles one task message after another.
 */
function run(): void {
  const port = parentPort;
  if (port === null) return;
  const post = (message: RuntimeMessage, transfer: readonly ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const boot = workerData as WorkerBoot;
  let handler: TaskHandler<unknown, unknown>;
  try {
    const loaded = require(boot.module) as Record<string, unknown>;
    const candidate = loaded[boot.exportName];
    if (typeof candidate !== 'function') throw new TypeError(`${boot.module} does not export a function named ${boot.exportName}`);
    handler = candidate as TaskHandler<unknown, unknown>;
  } catch (error) {
    post({ type: 'load-failed', message: (error as Error).stack ?? String(error) });
    return;
  }
  port.on('message', (message: PoolMessage) => {
    // Ends the thread between tasks, where no native handle can be caught half made (see WorkerPool.stop).
    if (message?.type === 'stop') process.exit(0);
    if (message?.type !== 'task') return;
    const transferred: ArrayBuffer[] = [];
    const context: TaskContext = {
      progress: (note) => post({ type: 'progress', id: message.id, note }),
      transfer: (buffers) => void transferred.push(...buffers),
    };
    Promise.resolve()
      .then(() => handler(message.input, context))
      .then(
        (value) => {
          try {
            post({ type: 'result', id: message.id, ok: true, value }, transferred);
          } catch (error) {
            post({ type: 'result', id: message.id, ok: false, name: 'DataCloneError', message: `the task's result cannot be sent back: ${(error as Error).message}` });
          }
        },
        (error: unknown) => {
          const e = error instanceof Error ? error : new Error(String(error));
          post({ type: 'result', id: message.id, ok: false, name: e.name, message: e.message });
        },
      );
  });
  post({ type: 'ready' });
}

run();
