/**
 * What `npm start` and the container image set for a Vigil process before Node starts (package.json,
 * deploy/Dockerfile), so processes started by tests and benchmarks run as deployed. An already set value wins.
 *
 * MALLOC_ARENA_MAX: glibc gives each thread that allocates its own malloc arena (up to 8 per core); with the
 * embedded ClickHouse engine's threads, zlib and the worker threads, memory freed in one arena is not reused by
 * the others. Two arenas kept the sustained bench's RSS about 90 MB lower at the same throughput.
 */
export function serverRuntimeEnv(): Record<string, string> {
  return { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
}

/**
 * The V8 flags `npm start` and the image's CMD pass to node, before the entry module.
 *
 * Under load, the main thread (HTTP, bus, store calls) kept about 50 MB live and V8 started a full mark-compact
 * about once a second, each finding almost nothing to free: its old-space limit stayed within one young
 * generation (up to 3 x 16 MB) of the live size, which V8 treats as nearly full. The marking ran on the threads
 * the scoring workers also need (`--trace-incremental-marking`; the sustained bench's GC helper threads took
 * about 0.3 of the 2 cores).
 * - `--heap-growing-percent=100`: after a mark-compact, a heap may grow to twice its live size before the next.
 * - `--max-semi-space-size=4`: the main and ingest threads' young generations stay small (12 MB), so V8 counts
 *   their old space as near its limit much later; this also gives back the resident memory the larger limit costs.
 *   The scoring threads set their own young generation (engines/worker-engines.ts).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=100'];
