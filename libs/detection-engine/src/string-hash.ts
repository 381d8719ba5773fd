/** FNV-1a (32 bits) of `key`, seeded by a namespace (0 for none): for hash tables kept in typed arrays. */
export function stringHash(ns: number, key: string): number {
  let h = (0x811c9dc5 ^ ns) >>> 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
