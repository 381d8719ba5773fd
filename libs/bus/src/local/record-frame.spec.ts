import { decodeFrame, encodeFrame, FRAME_PREFIX_BYTES, probeFrame, sealFrame } from './record-frame';

const LIMIT = 1024 * 1024;

function sealed(key: string, value: Buffer, offset: number, headers?: Record<string, string>): Buffer {
  const unsealed = encodeFrame({ key, value, headers }, LIMIT);
  sealFrame(unsealed, offset, 1_700_000_000_123);
  expect(unsealed.value).toBe(value); // referenced, not copied
  return Buffer.concat([unsealed.head, unsealed.value]);
}

describe('record frames', () => {
  it('round-trips key, headers, value, offset and timestamp', () => {
    const frame = sealed('ws1|10.0.0.1', Buffer.from('hello'), 2 ** 40 + 5, { type: 'dns', n: 'ü' });
    const probe = probeFrame(frame, 0, frame.length);
    expect(probe).toEqual({ kind: 'frame', offset: 2 ** 40 + 5, frameBytes: frame.length });
    const record = decodeFrame(frame, 0, frame.length);
    expect(record).toEqual({
      offset: 2 ** 40 + 5,
      timestamp: 1_700_000_000_123,
      key: 'ws1|10.0.0.1',
      headers: { type: 'dns', n: 'ü' },
      value: Buffer.from('hello'),
      frameBytes: frame.length,
    });
  });

  it('reads frames back to back and reports a cut one as incomplete', () => {
    const both = Buffer.concat([sealed('a', Buffer.alloc(10, 1), 0), sealed('b', Buffer.alloc(20, 2), 1)]);
    const first = probeFrame(both, 0, both.length);
    if (first.kind !== 'frame') throw new Error('expected a frame');
    expect(decodeFrame(both, first.frameBytes, both.length - first.frameBytes).key).toBe('b');
    expect(probeFrame(both, first.frameBytes, both.length - 3)).toMatchObject({ kind: 'incomplete' });
    expect(probeFrame(both, 0, 5)).toEqual({ kind: 'incomplete', needed: FRAME_PREFIX_BYTES });
  });

  it('detects a flipped bit, zero fill and an absurd length', () => {
    const frame = sealed('k', Buffer.from('payload'), 3);
    const flipped = Buffer.from(frame);
    flipped[flipped.length - 1] ^= 0x01;
    expect(probeFrame(flipped, 0, flipped.length)).toEqual({ kind: 'corrupt', reason: 'CRC mismatch' });
    const zeros = Buffer.alloc(64);
    expect(probeFrame(zeros, 0, zeros.length)).toMatchObject({ kind: 'corrupt' });
    const huge = Buffer.from(frame);
    huge.writeUInt32BE(0xfffffff0, 0);
    expect(probeFrame(huge, 0, huge.length)).toMatchObject({ kind: 'corrupt', reason: expect.stringMatching(/length/) });
  });

  it('rejects malformed records with clear errors', () => {
    expect(() => encodeFrame(null as never, LIMIT)).toThrow(/must be an object/);
    expect(() => encodeFrame({ key: 1, value: Buffer.alloc(0) } as never, LIMIT)).toThrow(/key must be a string/);
    expect(() => encodeFrame({ key: 'k', value: 'text' } as never, LIMIT)).toThrow(/value for key "k" must be a Buffer/);
    expect(() => encodeFrame({ key: 'k', value: Buffer.alloc(0), headers: { a: 1 } } as never, LIMIT)).toThrow(
      /header "a" .* must be a string/,
    );
    expect(() => encodeFrame({ key: 'k', value: Buffer.alloc(2000) }, 1000)).toThrow(/limit is 1000/);
  });
});
