/**
 * What `npm start` and the container image set for a Vigil process before Node starts (package.json,
 * deploy/Dockerfile), so processes started by tests and benchmarks run as deployed. An already set value wins.
 *
 * MALLOC_ARENA_MAX: glibc gives each thread that allocates its own malloc arena (up to 8 per core); with the
 * embedded ClickHouse engine's threads, zlib and the worker threads, memory freed in one arena is not reused by
 * the others. Two arenas kept the sustained bench's RSS about 90 MB lower at the same throughput.
 *
 * MALLOC_MMAP_THRESHOLD_: glibc serves blocks of at least this size with their own mappings, which go back to
 * the kernel when freed. Left unset, glibc raises the threshold each time such a block is freed (up to 32 MB),
 * so the embedded engine's merge and compression buffers, the decompressed bodies and the like soon come from
 * the arenas instead, where the gaps they leave stay resident. Pinned at glibc's initial 128 KiB, the
 * sustained bench ran 90-120 MB lower at the same throughput (5-minute runs, README).
 */
export const SERVER_MALLOC_DEFAULTS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

export function serverRuntimeEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(SERVER_MALLOC_DEFAULTS)) env[name] = process.env[name] ?? value;
  return env;
}

/**
 * The V8 flags `npm start` and the image's CMD pass to node, before the entry module.
 *
 * Under load, the main thread (HTTP, bus, store calls) kept about 50 MB live, and V8 ran a full mark-compact of
 * it about once a second, each freeing 1-3 MB: `--trace-incremental-marking` showed marking restart at about
 * 51 MB of a 75 MB old-space limit. The marking ran on V8's helper threads, which the scoring workers also need
 * (they took about 0.3 of the sustained bench's 2 cores).
 * - `--heap-growing-percent=100`: after a mark-compact, a heap may grow to twice its live size before the next.
 * - `--max-semi-space-size=4`: the main and ingest threads' young generations stay small (12 MB), which gives
 *   back part of the resident memory the larger limits cost. The scoring threads set their own young generation
 *   (engines/worker-engines.ts).
 * Sustained bench, 3-minute runs: 58,165 scored events/s with both flags, 57,962 with the first only, 48,666
 * with neither (README, Configuration).
 * - `--single-threaded-gc`: each thread collects its own garbage, with no concurrent marking or parallel
 *   scavenges on V8's helper threads. On a machine whose cores the scoring and ingest threads keep busy, the
 *   helpers only took cycles from them, and the hand-offs between threads added to the total: in four 3-minute
 *   sustained runs, two with the flag and two without, alternating, the helper threads fell from about 0.42 to
 *   0.29 cores, the scoring threads rose from about 0.70 to 0.80, and the scored events/s from 51,203 and 48,599
 *   to 58,403 and 51,936. Each thread's collection pauses are longer: status p99 in that evening's runs was
 *   34-58 ms with it and 34-51 ms without (docs/benchmark-history.md).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=100', '--single-threaded-gc'];
