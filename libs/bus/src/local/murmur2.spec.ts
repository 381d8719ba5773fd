import { randomBytes } from 'crypto';
import { Partitioners } from 'kafkajs';
import { murmur2, murmur2Partition } from './murmur2';

describe('murmur2', () => {
  // Expected hashes from Apache Kafka's UtilsTest.testMurmur2 (clients/src/test/.../utils/UtilsTest.java).
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('hashes %j like Kafka', (text, expected) => {
    expect(murmur2(Buffer.from(text, 'utf8'))).toBe(expected);
  });

  it('maps keys to partitions with the positive hash modulo the count', () => {
    // (-790332482 & 0x7fffffff) = 1357151166; 1357151166 % 12 = 6
    expect(murmur2Partition('foobar', 12)).toBe(6);
    // (-973932308 & 0x7fffffff) = 1173551340 = 7 * 167650191 + 3, and = 12 * 97795945 + 0
    expect(murmur2Partition('21', 12)).toBe(0);
    expect(murmur2Partition('21', 7)).toBe(3);
    // 479470107 is already positive; % 6 = 3
    expect(murmur2Partition('abc', 6)).toBe(3);
    expect(murmur2Partition('anything', 1)).toBe(0);
  });

  it('agrees with the kafkajs default partitioner on random and non-ASCII keys', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_, id) => ({ partitionErrorCode: 0, partitionId: id, leader: 1, replicas: [1], isr: [1] }));
    // Long keys, too: up to 341 UTF-16 units go through a reused buffer, longer ones through a Buffer of their own.
    const keys = ['', 'é', 'ws1|10.0.0.1', '日本語キー', '😀|fe80::1', 'x'.repeat(341), '日'.repeat(341), '😀'.repeat(171), 'é'.repeat(342), 'a'.repeat(2000), 'b'];
    for (let i = 0; i < 300; i += 1) keys.push(randomBytes(1 + (i % 40)).toString('base64'));
    for (const key of keys) {
      const expected = partitioner({ topic: 't', partitionMetadata, message: { key, value: null } });
      expect({ key, partition: murmur2Partition(key, 12) }).toEqual({ key, partition: expected });
    }
  });

  it('rejects a bad partition count or key', () => {
    expect(() => murmur2Partition('k', 0)).toThrow(/positive integer/);
    expect(() => murmur2Partition('k', 2.5)).toThrow(/positive integer/);
    expect(() => murmur2Partition(42 as unknown as string, 3)).toThrow(/key must be a string/);
  });
});
