export { WorkerPool, WorkerBudgetError, WorkerQueueFullError, WorkerTaskError, type WorkerPoolOptions } from './worker-pool';
export { siblingModule } from './task-module';
export { movableBuffersOf } from './movable-buffers';
export type { TaskContext, TaskHandler } from './worker-protocol';
export { lowerThreadPriority, threadNice } from './thread-priority';
