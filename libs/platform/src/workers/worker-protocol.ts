/** Messages between a {@link WorkerPool} and the runtime inside each of its threads. */

/** What the pool tells the runtime to load: a module and the named export that handles tasks. */
export interface WorkerBoot {
  /** Absolute path of the task module (`.ts` in development and tests, `.js` when built). */
  module: string;
  exportName: string;
}

export interface TaskMessage {
  type: 'task';
  id: number;
  input: unknown;
}

/** Asks an idle thread to end by itself (see {@link WorkerPool}'s close and idle timeout). */
export interface StopMessage {
  type: 'stop';
}

export type PoolMessage = TaskMessage | StopMessage;

export type RuntimeMessage =
  | { type: 'ready' }
  | { type: 'progress'; id: number; note: string }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; message: string; name: string }
  | { type: 'load-failed'; message: string };

/** What a task handler may use besides its input. */
export interface TaskContext {
  /**
   * Says what the task is working on now (a file name, a workspace). Cheap; the pool keeps the last note, so an
   * overrun can name what was being done when the budget ran out.
   */
  progress(note: string): void;
  /**
   * Moves these buffers to the asking thread with the result instead of copying them (they are unusable here
   * afterwards). Pass only buffers the result refers to and that nothing else in this thread still needs.
   */
  transfer(buffers: readonly ArrayBuffer[]): void;
}

/** A task module's handler: runs in the worker thread; its input and result are structured-cloned. */
export type TaskHandler<I, O> = (input: I, context: TaskContext) => O | Promise<O>;
