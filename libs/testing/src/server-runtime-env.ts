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
