import { movableBuffersOf } from './movable-buffers';

describe('movableBuffersOf', () => {
  it('lists a buffer a view covers whole, once, and leaves slices and empty buffers to be copied', () => {
    const whole = Buffer.from(new ArrayBuffer(64));
    const pooled = Buffer.from('small'); // a slice of Node's shared pool
    const slice = new Uint8Array(new ArrayBuffer(64), 8, 16);
    const empty = new Uint8Array(0);
    expect(movableBuffersOf([whole, pooled, slice, empty, new Uint8Array(whole.buffer)])).toEqual([whole.buffer]);
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength);
  });
});
