/**
 * What the WHATWG URL parser answers for the host and path of an `http(s)` URL, worked out by one scan instead,
 * for the plain URLs sensors mostly send: `[http[s]://]host[:port]` (letters, digits, hyphens and dots in the
 * host), then a path of characters the parser keeps as they are. null for anything else (user info, punycode,
 * numeric hosts, dot segments, backslashes, escapes the parser would add): the caller then asks the parser.
 */
export function parsePlainHttpUrl(url: string): { hostname: string; path: string } | null {
  const length = url.length;
  let at = schemeLength(url);
  const hostStart = at;
  let labelStart = at;
  let lastLabelStart = at;
  for (; at < length; at++) {
    const c = url.charCodeAt(at);
    if (c === DOT) {
      if (at === labelStart) return null;
      lastLabelStart = labelStart;
      labelStart = at + 1;
    } else if (!isHostCharacter(c)) {
      break;
    }
  }
  // A name ends in a label, or in a dot after one (`example.com.`).
  const trailingDot = at === labelStart;
  if (at === hostStart) return null;
  const hostEnd = trailingDot ? at - 1 : at;
  if (isNumericLabel(url, trailingDot ? lastLabelStart : labelStart, hostEnd)) return null;
  if (at < length && url.charCodeAt(at) === COLON) {
    const portStart = ++at;
    while (at < length && isDigit(url.charCodeAt(at))) at++;
    if (at === portStart || at - portStart > 5 || Number(url.slice(portStart, at)) > 65_535) return null;
  }
  // The authority ends at the path, query or fragment (anything else here is user info, a backslash, ...).
  if (at < length) {
    const c = url.charCodeAt(at);
    if (c !== SLASH && c !== QUESTION && c !== HASH) return null;
  }
  const pathStart = at;
  for (; at < length; at++) {
    const c = url.charCodeAt(at);
    if (c === QUESTION || c === HASH) break;
    if (c >= 128 || PATH_CHARACTERS[c] === 0) return null;
    // A segment that may be `.` or `..`, written plainly or escaped, is left to the parser.
    if (c === DOT && url.charCodeAt(at - 1) === SLASH) return null;
    if (c === PERCENT && url.charCodeAt(at + 1) === 0x32 && (url.charCodeAt(at + 2) | 0x20) === 0x65) return null;
  }
  const hostname = url.slice(hostStart, hostEnd).toLowerCase();
  if (hostname.includes('xn--')) return null;
  return { hostname, path: at === pathStart ? '/' : url.slice(pathStart, at) };
}

const DOT = 0x2e;
const COLON = 0x3a;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const PERCENT = 0x25;

/** Characters of a path the WHATWG parser neither escapes nor reads specially. */
const PATH_CHARACTERS = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%") PATH_CHARACTERS[c.charCodeAt(0)] = 1;

/** `http://` or `https://` in any case: its length, else 0. */
function schemeLength(url: string): number {
  if (url.length < 7 || (url.charCodeAt(0) | 0x20) !== 0x68 || (url.charCodeAt(1) | 0x20) !== 0x74 || (url.charCodeAt(2) | 0x20) !== 0x74 || (url.charCodeAt(3) | 0x20) !== 0x70) {
    return 0;
  }
  const secure = (url.charCodeAt(4) | 0x20) === 0x73 ? 1 : 0;
  return url.startsWith('://', 4 + secure) ? 7 + secure : 0;
}

function isHostCharacter(c: number): boolean {
  return isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x2d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A label the parser reads as (part of) an IPv4 address: decimal digits, or `0x` and hex digits. */
function isNumericLabel(url: string, from: number, to: number): boolean {
  let at = from;
  if (to - from >= 2 && url.charCodeAt(from) === 0x30 && (url.charCodeAt(from + 1) | 0x20) === 0x78) {
    for (at = from + 2; at < to; at++) {
      const c = url.charCodeAt(at) | 0x20;
      if (!(isDigit(url.charCodeAt(at)) || (c >= 0x61 && c <= 0x66))) return false;
    }
    return true;
  }
  for (; at < to; at++) if (!isDigit(url.charCodeAt(at))) return false;
  return true;
}
