import * as path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { bootstrapSource, nearestTypeScriptLoader, siblingModule } from './task-module';
import type { RuntimeMessage, StopMessage, TaskMessage, WorkerBoot } from './worker-protocol';
// Keeps the runtime in the compiled program: threads load it by path (see RUNTIME).
import type * as _runtime from './worker-runtime';

export interface WorkerPoolOptions {
  /** Names the pool in errors and thread names ("sigma rule validation"). */
  name: string;
  /** Absolute path of the task module; {@link siblingModule} picks `.ts` or `.js`. */
  module: string;
  /** The module's export that handles a task: `(input, context) => output`. */
  exportName: string;
  /** Threads at most (default 1); tasks beyond them wait in order. */
  maxThreads?: number;
  /** Tasks waiting for a thread at most; more are refused with {@link WorkerQueueFullError} (default 16). */
  maxQueued?: number;
  /** A task running longer is stopped and its thread terminated: {@link WorkerBudgetError} `time`. */
  timeoutMs: number;
  /** A thread that has not loaded its task module after this long is terminated (default 60 s). */
  startupTimeoutMs?: number;
  /** Heap limits of each thread; a task whose thread reaches them fails with {@link WorkerBudgetError} `memory`. */
  resourceLimits: ResourceLimits;
  /** A thread idle this long is terminated (default 5 minutes); the next task starts a new one. */
  idleTimeoutMs?: number;
}

/** A task overran the pool's time or memory budget; its thread was terminated. */
export class WorkerBudgetError extends Error {
  override readonly name = 'WorkerBudgetError';
  constructor(
    message: string,
    readonly budget: 'time' | 'memory',
    /** The task's last progress note (what it was working on). */
    readonly progress: string | undefined,
  ) {
    super(message);
  }
}

/** More tasks are waiting than the pool accepts. */
export class WorkerQueueFullError extends Error {
  override readonly name = 'WorkerQueueFullError';
}

/** The task itself threw (the message is the task's), or its thread died for another reason. */
export class WorkerTaskError extends Error {
  override readonly name = 'WorkerTaskError';
  constructor(
    message: string,
    readonly taskErrorName: string,
  ) {
    super(message);
  }
}

interface Task {
  id: number;
  input: unknown;
  transfer: readonly ArrayBuffer[];
  resolve(value: unknown): void;
  reject(error: Error): void;
  progress?: string;
}

interface Slot {
  worker: Worker;
  /** The thread has loaded the task module: a task's time starts counting only then. */
  ready: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  /** Set once the slot is being torn down (terminated on purpose or exited). */
  closed: boolean;
}

const RUNTIME = siblingModule(__filename, 'worker-runtime');

/** How long a thread asked to stop may take to finish its task (or loading) and end by itself before it is terminated. */
const STOP_GRACE_MS = 5_000;

/**
 * A small pool of worker threads for CPU work that must not be able to hurt the process that asks for it: each
 * task runs in a thread with heap limits and a time limit, and a thread that overruns either is terminated (the
 * task fails with {@link WorkerBudgetError}) and replaced on demand. Threads load TypeScript sources or built
 * JavaScript alike (see {@link bootstrapSource}).
 */
export class WorkerPool<I, O> {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closing = false;
  private readonly maxThreads: number;
  private readonly maxQueued: number;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: WorkerPoolOptions) {
    this.maxThreads = Math.max(1, options.maxThreads ?? 1);
    this.maxQueued = options.maxQueued ?? 16;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 5 * 60_000;
  }

  /**
   * Runs one task; rejects with WorkerBudgetError, WorkerQueueFullError or WorkerTaskError. The `transfer`
   * buffers move to the thread with the input instead of being copied (unusable by the caller afterwards).
   */
  run(input: I, transfer: readonly ArrayBuffer[] = []): Promise<O> {
    if (this.closing) return Promise.reject(new WorkerTaskError(`${this.options.name} is shutting down`, 'Error'));
    const waiting = this.queue.length;
    const free = [...this.slots].some((s) => s.task === undefined && !s.closed) || this.slots.size < this.maxThreads;
    if (!free && waiting >= this.maxQueued) {
      return Promise.reject(new WorkerQueueFullError(`${this.options.name} is busy: ${waiting} tasks are waiting (at most ${this.maxQueued})`));
    }
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, transfer, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  /**
   * Starts a thread ahead of the first task, so that task does not wait for the thread to load its module; with
   * `input`, also runs that task once (its result is dropped), so the code it runs is compiled and warm. Resolves
   * once the thread is ready (or the task done); rejects as {@link run} does.
   */
  async warm(input?: I): Promise<void> {
    if (this.slots.size > 0 || this.closing) return;
    if (input !== undefined) {
      await this.run(input);
      return;
    }
    const slot = this.spawn();
    this.scheduleIdle(slot);
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      slot.worker.once('message', done);
      slot.worker.once('exit', done);
    });
  }

  /** Threads alive now (tests, diagnostics). */
  get threads(): number {
    return [...this.slots].filter((s) => !s.closed).length;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const task of this.queue.splice(0)) task.reject(new WorkerTaskError(`${this.options.name} is shutting down`, 'Error'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot, new WorkerTaskError(`${this.options.name} is shutting down`, 'Error'), 'stop')));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => s.task === undefined && !s.closed);
      if (slot === undefined) {
        if (this.slots.size >= this.maxThreads) return;
        slot = this.spawn();
      }
      this.start(slot, this.queue.shift() as Task);
    }
  }

  private spawn(): Slot {
    const boot: WorkerBoot & { runtime: string; typeScriptLoader?: string } = {
      module: this.options.module,
      exportName: this.options.exportName,
      runtime: RUNTIME,
      typeScriptLoader: nearestTypeScriptLoader(path.dirname(this.options.module)),
    };
    const worker = new Worker(bootstrapSource(), { eval: true, workerData: boot, resourceLimits: this.options.resourceLimits, name: this.options.name });
    const slot: Slot = { worker, ready: false, closed: false };
    this.slots.add(slot);
    // Loading the module gets a budget of its own; the first task's time starts once the thread is ready.
    const startup = this.options.startupTimeoutMs ?? 60_000;
    slot.timer = setTimeout(() => {
      void this.retire(slot, new WorkerTaskError(`${this.options.name} did not load its task module within ${startup} ms`, 'Error'));
    }, startup);
    worker.on('message', (message: RuntimeMessage) => this.onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      const task = slot.task;
      const limits = this.options.resourceLimits;
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new WorkerBudgetError(
              `${this.options.name} reached its memory budget (heap ${limits.maxOldGenerationSizeMb ?? '?'} MB + ${limits.maxYoungGenerationSizeMb ?? '?'} MB) and was stopped`,
              'memory',
              task?.progress,
            )
          : new WorkerTaskError(`${this.options.name} failed: ${error.message}`, error.name);
      void this.retire(slot, failure);
    });
    worker.on('exit', (code) => {
      if (!slot.closed) void this.retire(slot, new WorkerTaskError(`${this.options.name} stopped unexpectedly (exit code ${code})`, 'Error'));
    });
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    clearTimeout(slot.idle);
    slot.task = task;
    slot.worker.ref();
    if (slot.ready) this.startClock(slot, task);
    const message: TaskMessage = { type: 'task', id: task.id, input: task.input };
    slot.worker.postMessage(message, task.transfer);
  }

  private startClock(slot: Slot, task: Task): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      void this.retire(slot, new WorkerBudgetError(`${this.options.name} ran longer than its time budget of ${this.options.timeoutMs} ms and was stopped`, 'time', task.progress));
    }, this.options.timeoutMs);
  }

  private onMessage(slot: Slot, message: RuntimeMessage): void {
    const task = slot.task;
    if (message.type === 'load-failed') {
      void this.retire(slot, new WorkerTaskError(`${this.options.name} could not load its task module: ${message.message}`, 'Error'));
      return;
    }
    if (message.type === 'ready') {
      slot.ready = true;
      clearTimeout(slot.timer);
      if (task !== undefined) this.startClock(slot, task);
      return;
    }
    if (task === undefined || message.id !== task.id) return;
    if (message.type === 'progress') {
      task.progress = message.note;
      return;
    }
    clearTimeout(slot.timer);
    slot.task = undefined;
    if (message.ok) task.resolve(message.value);
    else task.reject(new WorkerTaskError(message.message, message.name));
    this.scheduleIdle(slot);
    this.dispatch();
  }

  /** An idle thread does not keep the process alive, and goes away after the idle timeout. */
  private scheduleIdle(slot: Slot): void {
    if (slot.task !== undefined || slot.closed) return;
    slot.worker.unref();
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => void this.retire(slot, undefined, 'stop'), this.idleTimeoutMs);
    slot.idle.unref();
  }

  /**
   * Takes a thread out of the pool; its running task (if any) fails with `failure` at once and waiting tasks move on
   * to other threads. A thread that overran a budget or failed is terminated; one let go (`stop`: idle, or the pool
   * closing) is asked to end by itself once it is between tasks, so that termination never cuts into its work.
   */
  private async retire(slot: Slot, failure?: Error, how: 'terminate' | 'stop' = 'terminate'): Promise<void> {
    if (slot.closed) return;
    slot.closed = true;
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
    this.slots.delete(slot);
    const task = slot.task;
    slot.task = undefined;
    if (task !== undefined) task.reject(failure ?? new WorkerTaskError(`${this.options.name} was stopped`, 'Error'));
    if (how === 'stop') await this.stop(slot, task === undefined && slot.ready);
    else await slot.worker.terminate().catch(() => undefined);
    if (!this.closing) this.dispatch();
  }

  /**
   * Ends a thread from inside, between tasks. Terminating a thread from outside can stop it between creating a
   * native handle and initialising it (a zlib stream of a task or of a module loading its data), and Node.js
   * aborts the whole process when it frees such a handle; a thread that ends itself from its message loop is
   * never in that state. One that does not end within the grace period is terminated after all.
   */
  private async stop(slot: Slot, idleNow: boolean): Promise<void> {
    const worker = slot.worker;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const askToStop = () => {
      try {
        worker.postMessage({ type: 'stop' } satisfies StopMessage);
      } catch {
        // The thread is gone already.
      }
    };
    if (idleNow) askToStop();
    else {
      worker.on('message', (message: RuntimeMessage) => {
        if (message.type === 'ready' || message.type === 'result') askToStop();
      });
    }
    let grace: NodeJS.Timeout | undefined;
    const overdue = new Promise<'overdue'>((resolve) => (grace = setTimeout(() => resolve('overdue'), STOP_GRACE_MS)));
    const outcome = await Promise.race([exited, overdue]);
    clearTimeout(grace);
    if (outcome === 'overdue') await worker.terminate().catch(() => undefined);
  }
}
