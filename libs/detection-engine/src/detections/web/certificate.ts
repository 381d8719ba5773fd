import { BoundedMemo } from '../../bounded-memo';

/**
 * Reading X.509 distinguished names and validity dates as sensors report them: RFC 4514 strings
 * (`CN=R3,O=Let's Encrypt,C=US`), OpenSSL one-line form (`/C=US/O=Acme/CN=x`) or `C=GB, ST=London, ...`.
 */
export interface DistinguishedName {
  /** Attribute type (upper case: CN, O, OU, ...) → values in order. */
  attributes: ReadonlyMap<string, readonly string[]>;
  /** Case- and order-insensitive form, for comparing two names. */
  canonical: string;
}

const ATTRIBUTE = /^\s*([A-Za-z][A-Za-z0-9.-]*)\s*=\s*(.*?)\s*$/;

function splitRdns(text: string): string[] {
  if (text.startsWith('/')) return text.slice(1).split('/');
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      current += text[++i];
    } else if (ch === ',' || ch === ';' || ch === '+') {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

// Servers present the same few certificates over and over: a bounded memo of parsed names, keyed by the raw
// string. Names longer than 1024 characters are parsed every time.
const nameCache = new BoundedMemo<DistinguishedName | undefined>(4096, (text) => parseUncached(text), 1024);

/** Parses a distinguished name; undefined when it holds no `type=value` attribute. The result is shared (frozen). */
export function parseDistinguishedName(text: unknown): DistinguishedName | undefined {
  if (typeof text !== 'string') return undefined;
  return nameCache.get(text);
}

function parseUncached(text: string): DistinguishedName | undefined {
  if (text.trim().length === 0) return undefined;
  const attributes = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const part of splitRdns(text.trim())) {
    const match = ATTRIBUTE.exec(part);
    if (match === null) {
      // A ',' inside a value that the sensor did not escape (`O=Acme, Inc.`): it belongs to the previous value.
      if (last !== undefined && part.trim().length > 0) last[last.length - 1] += `,${part}`;
      continue;
    }
    const type = match[1].toUpperCase();
    const values = attributes.get(type) ?? [];
    values.push(match[2]);
    attributes.set(type, values);
    last = values;
  }
  if (attributes.size === 0) return undefined;
  const canonical = [...attributes]
    .flatMap(([type, values]) => values.map((v) => `${type}=${v.trim().toLowerCase()}`))
    .sort()
    .join(',');
  for (const values of attributes.values()) Object.freeze(values);
  return Object.freeze({ attributes, canonical });
}

/** The first value of an attribute (`CN`, `O`, ...: upper case, as parsed names hold types). */
export function attribute(name: DistinguishedName, type: Uppercase<string>): string | undefined {
  return name.attributes.get(type)?.[0];
}

/**
 * A validity bound as epoch ms; undefined when missing, unparsable, or a zero value (`0001-01-01T00:00:00Z`,
 * the Unix epoch) that sensors send when they do not know the date.
 */
export function certificateTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  return timeCache.get(value);
}

// Every session with a server repeats its certificate's dates.
const timeCache = new BoundedMemo<number | undefined>(4096, (value) => {
  const ms = Date.parse(value);
  return !Number.isFinite(ms) || ms <= 0 ? undefined : ms;
}, 64);
