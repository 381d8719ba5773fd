/**
 * `s.toLowerCase()`, without its cost (about 70 ns even on a short string, through ICU) when `s` is
 * ASCII with no upper-case letter, the usual case for field values: then `s` itself is returned.
 */
export function lowerCase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127 || (c >= 65 && c <= 90)) return s.toLowerCase();
  }
  return s;
}
