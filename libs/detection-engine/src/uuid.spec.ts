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
  it('rejects a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(/namespace is not a UUID/);
  });
});
