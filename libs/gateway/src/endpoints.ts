import type { TelemetryEvent } from '@vigil/contracts';

/**
 * A body's endpoint ids packed for the trip from an ingest thread: their text end to end, where each ends, and a
 * 52-bit hash of each. The thread that answers HTTP then checks the hashes against what it has already counted
 * and cuts out only the ids it has not (usually none), instead of receiving and hashing thousands of strings
 * per body.
 */
export interface PackedEndpoints {
  text: string;
  /** End offset in `text` of each id (the next one starts there). */
  ends: Uint32Array;
  hashes: Float64Array;
}

const EMPTY: PackedEndpoints = { text: '', ends: new Uint32Array(0), hashes: new Float64Array(0) };

/**
 * The distinct endpoints of events added one at a time. An endpoint is identified by its host name when the
 * sensor knows it (`host:<name>`), else by its source IP (`ip:<address>`). Addresses are held as the event's own
 * string and prefixed once at the end: the record packer has already hashed that very string, and a prefixed
 * copy per event had to be built and hashed again.
 */
export class EndpointSet {
  private readonly hosts = new Set<string>();
  private readonly addresses = new Set<string>();

  add(event: TelemetryEvent): void {
    if (event.srcHost) this.hosts.add(`host:${event.srcHost.toLowerCase()}`);
    else if (event.srcIP) this.addresses.add(event.srcIP);
  }

  ids(): string[] {
    const ids = [...this.hosts];
    for (const address of this.addresses) ids.push(`ip:${address}`);
    return ids;
  }

  packed(): PackedEndpoints {
    const ids = this.ids();
    if (ids.length === 0) return EMPTY;
    const ends = new Uint32Array(ids.length);
    const hashes = new Float64Array(ids.length);
    let end = 0;
    for (let i = 0; i < ids.length; i++) {
      end += ids[i].length;
      ends[i] = end;
      hashes[i] = endpointHash(ids[i]);
    }
    return { text: ids.join(''), ends, hashes };
  }
}

/** The id at `index` of a packed list. */
export function packedEndpointAt(packed: PackedEndpoints, index: number): string {
  return packed.text.slice(index === 0 ? 0 : packed.ends[index - 1], packed.ends[index]);
}

/**
 * Two 32-bit FNV-1a variants over the UTF-16 code units, joined into 52 bits (an exact double): among a million
 * ids of one day, two share a hash with a chance of about 1 in 10,000, which at worst leaves one endpoint
 * uncounted until the filter is next refreshed.
 */
export function endpointHash(id: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}
