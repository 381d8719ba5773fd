/** FNV-1a's 32-bit offset basis and prime. */
export const FNV_OFFSET_BASIS = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** FNV-1a (32 bits) of `key`, seeded by a namespace (0 for none): for hash tables kept in typed arrays. */
export function stringHash(ns: number, key: string): number {
  let h = (FNV_OFFSET_BASIS ^ ns) >>> 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** FNV-1a (32 bits) of `key` taken from its last character to its first, so that a suffix's hash is a step on the way. */
export function stringHashFromEnd(key: string): number {
  let h = FNV_OFFSET_BASIS;
  for (let i = key.length - 1; i >= 0; i--) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}
