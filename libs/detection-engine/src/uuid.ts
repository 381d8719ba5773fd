import { hash } from 'node:crypto';

/** Namespace of every Vigil name-based id: UUIDv5(URL namespace, "https://vigil.invalid/ns"). */
export const VIGIL_UUID_NAMESPACE = '10caf789-0992-5535-b016-38b2b511d39a';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Namespaces as bytes, each worked out once (there are a handful). */
const namespaceBytes = new Map<string, Buffer>();

/**
 * RFC 9562 name-based UUID, version 5 (SHA-1): the same (namespace, name) always gives the same id. Every alert
 * and finding version gets one, so it takes the one-shot hash and patches the version and variant digits into
 * the hex text (a hash object, and the namespace parsed on every call, cost about twice as much).
 */
export function uuidV5(name: string, namespace: string = VIGIL_UUID_NAMESPACE): string {
  let ns = namespaceBytes.get(namespace);
  if (ns === undefined) {
    if (!UUID_PATTERN.test(namespace)) throw new Error(`uuidV5: namespace is not a UUID: ${namespace}`);
    ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
    if (namespaceBytes.size < 64) namespaceBytes.set(namespace, ns);
  }
  const hex = hash('sha1', Buffer.concat([ns, Buffer.from(name, 'utf8')]), 'hex');
  // Version 5 is the high nibble of byte 6 (hex digit 12); the variant (binary 10) the top bits of byte 8 (digit 16).
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
