import { createHash } from 'node:crypto';

/** Namespace of every Vigil name-based id: UUIDv5(URL namespace, "https://vigil.invalid/ns"). */
export const VIGIL_UUID_NAMESPACE = '10caf789-0992-5535-b016-38b2b511d39a';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 9562 name-based UUID, version 5 (SHA-1): the same (namespace, name) always gives the same id. */
export function uuidV5(name: string, namespace: string = VIGIL_UUID_NAMESPACE): string {
  if (!UUID_PATTERN.test(namespace)) throw new Error(`uuidV5: namespace is not a UUID: ${namespace}`);
  const digest = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
