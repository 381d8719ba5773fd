/**
 * Kafka's murmur2 (the 32-bit MurmurHash2 variant of org.apache.kafka.common.utils.Utils.murmur2, also used by
 * kafkajs's default partitioner), so that a key lands on the same partition in embedded mode as in Kafka.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Signed 32-bit murmur2 hash of `data` (its first `length` bytes), identical to Kafka's `Utils.murmur2(byte[])`. */
export function murmur2(data: Uint8Array, length: number = data.length): number {
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // Deliberate fall-through, as in the reference implementation.
  switch (length & 3) {
    case 3:
      h ^= data[whole + 2] << 16;
    // falls through
    case 2:
      h ^= data[whole + 1] << 8;
    // falls through
    case 1:
      h ^= data[whole];
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Partition of `key` among `partitions`: `(murmur2(utf8(key)) & 0x7fffffff) % partitions`, as Kafka does. */
export function murmur2Partition(key: string, partitions: number): number {
  if (typeof key !== 'string') throw new TypeError('murmur2Partition: key must be a string');
  if (!Number.isInteger(partitions) || partitions < 1) {
    throw new RangeError(`murmur2Partition: partitions must be a positive integer, got ${String(partitions)}`);
  }
  // Keys are encoded into one reused buffer: the gateway hashes a key per source address of every body, and a
  // Buffer per key was a tenth of preparing a body. UTF-8 takes at most 3 bytes per UTF-16 unit.
  const hash = key.length * 3 <= KEY_SCRATCH.length ? murmur2(KEY_SCRATCH, KEY_SCRATCH.write(key, 0, 'utf8')) : murmur2(Buffer.from(key, 'utf8'));
  return (hash & 0x7fffffff) % partitions;
}

const KEY_SCRATCH = Buffer.allocUnsafe(1024);
