import { createHash } from 'node:crypto';
import { uuidV5, VIGIL_UUID_NAMESPACE } from './uuid';

describe('uuidV5', () => {
  it('matches the RFC 9562 / Python uuid5 reference value', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
  it('derives the Vigil namespace from the URL namespace', () => {
    expect(uuidV5('https://vigil.invalid/ns', '6ba7b811-9dad-11d1-80b4-00c04fd430c8')).toBe(VIGIL_UUID_NAMESPACE);
  });
  it('is deterministic, versioned 5 and RFC variant', () => {
    const a = uuidV5('finding|ws|10.0.0.1');
    expect(a).toBe(uuidV5('finding|ws|10.0.0.1'));
    expect(a).not.toBe(uuidV5('finding|ws|10.0.0.2'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('agrees with the byte-wise construction of the RFC for names of every kind', () => {
    const byBytes = (name: string, namespace: string): string => {
      const bytes = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest().subarray(0, 16);
      bytes[6] = (bytes[6] & 0x0f) | 0x50;
      bytes[8] = (bytes[8] & 0x3f) | 0x80;
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    const names = ['', 'a', 'ünïcödé ✓', '\u0000ws\u0000', ...Array.from({ length: 500 }, (_, i) => `alert|ws-${i}|batch-${i * 7}|${i % 13}`)];
    for (const namespace of [VIGIL_UUID_NAMESPACE, '6BA7B810-9DAD-11D1-80B4-00C04FD430C8']) {
      for (const name of names) expect(uuidV5(name, namespace)).toBe(byBytes(name, namespace));
    }
  });
  it('rejects a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(/namespace is not a UUID/);
  });
});
