import { FrameStreamSession, DNSTAP_CONTENT_TYPE } from './frame-stream-session';
import { CONTROL, FrameStreamDecoder, FrameStreamError, encodeControlFrame, encodeDataFrame, type Frame } from './frame-streams';

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

function errorOf(run: () => unknown): FrameStreamError {
  try {
    run();
  } catch (error) {
    if (error instanceof FrameStreamError) return error;
    throw error;
  }
  throw new Error('no FrameStreamError thrown');
}

describe('Frame Streams codec', () => {
  it('encodes control frames as fstrm does: escape, length (4 + 8 + 22 bytes here), type, content-type fields', () => {
    expect(encodeControlFrame(CONTROL.READY, [DNSTAP_CONTENT_TYPE]).toString('hex')).toBe(
      '00000000' + '00000022' + '00000004' + '00000001' + '00000016' + Buffer.from('protobuf:dnstap.Dnstap').toString('hex'),
    );
    expect(encodeControlFrame(CONTROL.FINISH).toString('hex')).toBe('00000000' + '00000004' + '00000005');
    expect(encodeDataFrame(Buffer.from('abc')).toString('hex')).toBe('00000003616263');
    expect(() => encodeDataFrame(Buffer.alloc(0))).toThrow(RangeError);
  });

  it('decodes control and data frames from one buffer, in order', () => {
    const decoder = new FrameStreamDecoder(1024);
    const frames = decoder.push(
      Buffer.concat([encodeControlFrame(CONTROL.READY, ['a/b', DNSTAP_CONTENT_TYPE]), encodeControlFrame(CONTROL.START, [DNSTAP_CONTENT_TYPE]), encodeDataFrame(Buffer.from('x1')), encodeControlFrame(CONTROL.STOP)]),
    );
    expect(frames).toEqual([
      { kind: 'control', type: CONTROL.READY, contentTypes: ['a/b', DNSTAP_CONTENT_TYPE] },
      { kind: 'control', type: CONTROL.START, contentTypes: [DNSTAP_CONTENT_TYPE] },
      { kind: 'data', payload: Buffer.from('x1') },
      { kind: 'control', type: CONTROL.STOP, contentTypes: [] },
    ]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('reassembles frames split at every byte boundary (partial reads)', () => {
    const stream = Buffer.concat([encodeControlFrame(CONTROL.START, [DNSTAP_CONTENT_TYPE]), encodeDataFrame(Buffer.from('hello')), encodeDataFrame(Buffer.alloc(300, 7)), encodeControlFrame(CONTROL.STOP)]);
    const expected = new FrameStreamDecoder(1024).push(stream);
    expect(expected).toHaveLength(4);
    for (let cut = 1; cut < stream.length; cut++) {
      const decoder = new FrameStreamDecoder(1024);
      expect([...decoder.push(stream.subarray(0, cut)), ...decoder.push(stream.subarray(cut))]).toEqual(expected);
    }
    const decoder = new FrameStreamDecoder(1024);
    const oneByOne: Frame[] = [];
    for (const byte of stream) oneByOne.push(...decoder.push(Buffer.from([byte])));
    expect(oneByOne).toEqual(expected);
  });

  it('skips an oversized data frame without buffering it, also across reads, and goes on', () => {
    const decoder = new FrameStreamDecoder(100);
    const big = encodeDataFrame(Buffer.alloc(5000, 1));
    const after = encodeDataFrame(Buffer.from('next'));
    expect(decoder.push(big.subarray(0, 1000))).toEqual([{ kind: 'oversized', length: 5000 }]);
    expect(decoder.pendingBytes).toBe(0);
    expect(decoder.push(big.subarray(1000, 3000))).toEqual([]);
    expect(decoder.pendingBytes).toBe(0);
    expect(decoder.push(Buffer.concat([big.subarray(3000), after]))).toEqual([{ kind: 'data', payload: Buffer.from('next') }]);
    // In one piece, and exactly at the limit.
    const whole = new FrameStreamDecoder(100);
    expect(whole.push(Buffer.concat([big, encodeDataFrame(Buffer.alloc(100, 2))])).map((f) => f.kind)).toEqual(['oversized', 'data']);
  });

  it('refuses control frames that are not Frame Streams', () => {
    const control = (body: Buffer) => Buffer.concat([u32(0), u32(body.length), body]);
    expect(errorOf(() => new FrameStreamDecoder(1024).push(Buffer.concat([u32(0), u32(513)]))).reason).toBe('bad_control_frame');
    expect(errorOf(() => new FrameStreamDecoder(1024).push(Buffer.concat([u32(0), u32(2), Buffer.alloc(2)]))).reason).toBe('bad_control_frame');
    expect(errorOf(() => new FrameStreamDecoder(1024).push(control(u32(9)))).message).toMatch(/unknown control frame type 0x9/);
    expect(errorOf(() => new FrameStreamDecoder(1024).push(control(Buffer.concat([u32(CONTROL.READY), u32(2), u32(1)])))).message).toMatch(/unknown field type 2/);
    expect(errorOf(() => new FrameStreamDecoder(1024).push(control(Buffer.concat([u32(CONTROL.READY), u32(1), u32(50), Buffer.from('short')])))).message).toMatch(/content type of 50 bytes/);
    expect(errorOf(() => new FrameStreamDecoder(1024).push(control(Buffer.concat([u32(CONTROL.READY), u32(1)])))).message).toMatch(/truncated field/);
    expect(errorOf(() => new FrameStreamDecoder(1024).push(encodeControlFrame(CONTROL.STOP, ['x']))).message).toMatch(/STOP carries fields/);
    expect(errorOf(() => new FrameStreamDecoder(1024).push(encodeControlFrame(CONTROL.START, ['a', 'b']))).message).toMatch(/more than one/);
  });
});

describe('Frame Streams session (receiver side)', () => {
  const control = (type: (typeof CONTROL)[keyof typeof CONTROL], contentTypes: string[] = []): Frame => ({ kind: 'control', type, contentTypes });

  it('bidirectional: READY → ACCEPT with the dnstap content type, START, data, STOP → FINISH', () => {
    const session = new FrameStreamSession();
    expect(session.step(control(CONTROL.READY, ['protobuf:other', DNSTAP_CONTENT_TYPE]))).toEqual([{ kind: 'reply', bytes: encodeControlFrame(CONTROL.ACCEPT, [DNSTAP_CONTENT_TYPE]) }]);
    expect(session.started).toBe(false);
    expect(session.step(control(CONTROL.START, [DNSTAP_CONTENT_TYPE]))).toEqual([]);
    expect(session.started).toBe(true);
    expect(session.step({ kind: 'data', payload: Buffer.from('p') })).toEqual([{ kind: 'payload', payload: Buffer.from('p') }]);
    expect(session.step({ kind: 'oversized', length: 1e6 })).toEqual([{ kind: 'oversized', length: 1e6 }]);
    expect(session.step(control(CONTROL.STOP))).toEqual([{ kind: 'stopped', finish: encodeControlFrame(CONTROL.FINISH) }]);
    expect(session.finished).toBe(true);
    expect(errorOf(() => session.step({ kind: 'data', payload: Buffer.from('late') })).reason).toBe('frame_after_stop');
  });

  it('unidirectional: START (content type optional) … STOP, with no replies', () => {
    const session = new FrameStreamSession();
    expect(session.step(control(CONTROL.START))).toEqual([]);
    expect(session.step(control(CONTROL.STOP))).toEqual([{ kind: 'stopped' }]);
  });

  it('refuses other content types, data before START and control frames out of order', () => {
    expect(errorOf(() => new FrameStreamSession().step(control(CONTROL.READY, ['protobuf:other']))).reason).toBe('content_type_mismatch');
    expect(errorOf(() => new FrameStreamSession().step(control(CONTROL.START, ['protobuf:other']))).reason).toBe('content_type_mismatch');
    expect(errorOf(() => new FrameStreamSession().step({ kind: 'data', payload: Buffer.from('x') })).reason).toBe('data_before_start');
    const ready = new FrameStreamSession();
    ready.step(control(CONTROL.READY, [DNSTAP_CONTENT_TYPE]));
    expect(errorOf(() => ready.step({ kind: 'data', payload: Buffer.from('x') })).reason).toBe('data_before_start');
    expect(errorOf(() => ready.step(control(CONTROL.READY, [DNSTAP_CONTENT_TYPE]))).reason).toBe('unexpected_control_frame');
    expect(errorOf(() => new FrameStreamSession().step(control(CONTROL.STOP))).reason).toBe('unexpected_control_frame');
    expect(errorOf(() => new FrameStreamSession().step(control(CONTROL.ACCEPT, [DNSTAP_CONTENT_TYPE]))).message).toMatch(/ACCEPT is not expected first/);
    const streaming = new FrameStreamSession();
    streaming.step(control(CONTROL.START));
    expect(errorOf(() => streaming.step(control(CONTROL.START))).message).toMatch(/START is not expected while streaming/);
  });
});
