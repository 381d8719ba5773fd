import { decodeBookmark, encodeBookmark, headBookmark } from './bookmark';

describe('bookmarks', () => {
  it('round-trips a position exactly, including microseconds beyond float precision', () => {
    const position = { insertedAtUs: '1795307371637583', recordId: 'f-1:3' };
    const encoded = encodeBookmark(position);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBookmark(encoded)).toEqual(position);
    const big = { insertedAtUs: '9223372036854775807', recordId: 'x' };
    expect(decodeBookmark(encodeBookmark(big))).toEqual(big);
  });

  it('is a versioned JSON document under base64url', () => {
    const encoded = encodeBookmark({ insertedAtUs: '12', recordId: 'r' });
    expect(JSON.parse(Buffer.from(encoded, 'base64url').toString())).toEqual({ v: 1, t: '12', id: 'r' });
  });

  it.each([undefined, null, '', '0', 'undefined', 'null', 'garbage!', '{"id":206536}', 'eyJpZCI6MjA2NTM2fQ=='])(
    'treats %p as the start',
    (value) => {
      expect(decodeBookmark(value)).toBeUndefined();
    },
  );

  it('rejects well-formed JSON that is not a valid position', () => {
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    expect(decodeBookmark(b64({ v: 2, t: '1', id: 'a' }))).toBeUndefined();
    expect(decodeBookmark(b64({ v: 1, t: 1, id: 'a' }))).toBeUndefined();
    expect(decodeBookmark(b64({ v: 1, t: '-1', id: 'a' }))).toBeUndefined();
    expect(decodeBookmark(b64({ v: 1, t: '01', id: 'a' }))).toBeUndefined();
    expect(decodeBookmark(b64({ v: 1, t: '9223372036854775808', id: 'a' }))).toBeUndefined();
    expect(decodeBookmark(b64({ v: 1, t: '5', id: 7 }))).toBeUndefined();
    expect(decodeBookmark(b64({ v: 1, t: '5', id: 'a'.repeat(1025) }))).toBeUndefined();
    expect(decodeBookmark(b64([1, 2]))).toBeUndefined();
    expect(decodeBookmark('x'.repeat(5000))).toBeUndefined();
  });

  it('refuses to encode an invalid position', () => {
    expect(() => encodeBookmark({ insertedAtUs: '1.5', recordId: 'a' })).toThrow(TypeError);
    expect(() => encodeBookmark({ insertedAtUs: '1', recordId: 3 as unknown as string })).toThrow(TypeError);
  });

  it('places the head just after everything inserted at the horizon', () => {
    expect(headBookmark(1000n)).toEqual({ insertedAtUs: '1001', recordId: '' });
  });
});
