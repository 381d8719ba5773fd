import type { KeyedState } from '../state/state-budget';
import type { LeaseEvent } from '@vigil/contracts';
import type { Endpoint } from '../detections/detection';
import { LruMap } from '../state/lru-map';
import { readLru, writeLru } from '../state/lru-snapshot';
import { readNumber, readOptionalString, readTuples, writeNumber } from '../state/snapshot';

/** Who held an address: the DHCP client's host name and MAC. */
export interface LeaseHolder {
  host?: string;
  mac?: string;
}

/** What the events of a leased address that name neither host nor MAC are attributed to (made by the engine). */
export interface LeaseAttribution {
  endpoint: Endpoint;
  /** The endpoint's host key (see host-keys.ts). */
  hostKey: string;
}

/** A lease covering a moment, as {@link LeaseTracker.leaseAt} hands it out. */
export interface CoveringLease {
  /** Never changed after the lease is made. */
  readonly holder: Readonly<LeaseHolder>;
  /**
   * Left for the caller to fill on the lease's first attributed event, so that its later events share one endpoint
   * and host key without a look-up of their own (a renewal keeps it; a new holder starts a new lease).
   */
  attribution: LeaseAttribution | undefined;
}

interface Lease extends CoveringLease {
  startMs: number;
  endMs: number;
}

/** Lease types that end a lease rather than grant one (DHCP message names as sensors spell them). */
const ENDING_TYPES = new Set(['release', 'released', 'expire', 'expired', 'expiry', 'decline', 'nak', 'delete', 'deleted', 'free']);
/** Lease length assumed when a grant carries no duration. */
const DEFAULT_LEASE_MS = 24 * 3_600_000;
/** History kept per address, newest last: enough to attribute late events across a few hand-overs. */
const MAX_LEASES_PER_ADDRESS = 8;

/**
 * Endpoint attribution from DHCP lease events: which host (name, MAC) held a source IP at a given time. Leases
 * expire and change hands, so each address keeps a short history and look-ups are by event time. Bounded: an
 * LRU over (workspace, address) and a capped history per address.
 */
export class LeaseTracker {
  /** Keyed by `workspace NUL address` (the snapshot's keys). */
  private readonly addresses: LruMap<string, Lease[]>;
  /**
   * Per workspace, each address's slot in {@link addresses}. Every event asks for its source address's lease: a key
   * built for each event is a fresh concatenation that the map must flatten and hash before it can compare it
   * (about 450 ns a look-up in a table of 16,000 leases, against about 130 ns for the address as parsed).
   */
  private readonly slotsByWorkspace = new Map<string, Map<string, number>>();
  private lastWorkspace: string | undefined;
  private lastSlots: Map<string, number> | undefined;

  /** The keyed state, for the process-wide memory budget. */
  keyedState(): readonly KeyedState[] {
    return [this.addresses];
  }

  constructor(maxAddresses = 100_000) {
    this.addresses = new LruMap(maxAddresses, (key) => this.forgetSlot(key));
  }

  /** Records a lease event of `workspaceId` (its srcIP is the leased address). */
  record(workspaceId: string, event: LeaseEvent, timeMs: number): void {
    if (typeof event.srcIP !== 'string' || event.srcIP === '') return;
    const slot = this.usedSlot(workspaceId, event.srcIP);
    // An address's leases are changed in place; a new address is added once they are made.
    const leases = slot === undefined ? [] : this.addresses.valueAt(slot);
    if (slot === undefined) this.addAddress(workspaceId, event.srcIP, leases);
    const current = leases.find((lease) => lease.startMs <= timeMs && timeMs < lease.endMs);
    const ending = event.termination === true || (typeof event.type === 'string' && ENDING_TYPES.has(event.type.toLowerCase()));
    const durationMs = typeof event.duration === 'number' && event.duration > 0 ? event.duration * 1000 : DEFAULT_LEASE_MS;
    const holder = holderOf(event);
    if (current !== undefined && !ending && sameHolder(current.holder, holder)) {
      // A renewal: the same client keeps the address, so the current lease runs on (one entry, not one per renewal).
      current.endMs = timeMs + durationMs;
      return;
    }
    if (current !== undefined) current.endMs = timeMs; // a grant to another client, or the end, closes the current lease
    if (!ending) {
      leases.push({ startMs: timeMs, endMs: timeMs + durationMs, holder, attribution: undefined });
      leases.sort((a, b) => a.startMs - b.startMs);
      if (leases.length > MAX_LEASES_PER_ADDRESS) leases.splice(0, leases.length - MAX_LEASES_PER_ADDRESS);
    }
  }

  /** Adds an address's leases as the most recent entry, and indexes its slot. */
  private addAddress(workspaceId: string, address: string, leases: Lease[]): void {
    // Added first: the entry addNew may evict to make room (never the new key, the most recent) can be the last of
    // the workspace's, whose index then goes.
    const added = this.addresses.addNew(`${workspaceId}\u0000${address}`, leases);
    this.slotsFor(workspaceId).set(address, added);
  }

  /** The slot of a workspace's address in {@link addresses}, marked most recently used; undefined when absent. */
  private usedSlot(workspaceId: string, address: string): number | undefined {
    if (workspaceId !== this.lastWorkspace) {
      this.lastSlots = this.slotsByWorkspace.get(workspaceId);
      this.lastWorkspace = workspaceId;
    }
    const slot = this.lastSlots?.get(address);
    if (slot !== undefined) this.addresses.markUsed(slot);
    return slot;
  }

  /** The holder of `address` at `timeMs`, or undefined when no known lease covers that moment. */
  holderAt(workspaceId: string, address: string, timeMs: number): Readonly<LeaseHolder> | undefined {
    return this.leaseAt(workspaceId, address, timeMs)?.holder;
  }

  /** The lease of `address` covering `timeMs`, or undefined. */
  leaseAt(workspaceId: string, address: string, timeMs: number): CoveringLease | undefined {
    // Asked for every event; most deployments send no leases, and the key would be built for nothing.
    if (this.addresses.size === 0) return undefined;
    const slot = this.usedSlot(workspaceId, address);
    if (slot === undefined) return undefined;
    const leases = this.addresses.valueAt(slot);
    for (let i = leases.length - 1; i >= 0; i--) {
      const lease = leases[i];
      if (lease.startMs <= timeMs && timeMs < lease.endMs) return lease;
    }
    return undefined;
  }

  get size(): number {
    return this.addresses.size;
  }

  /** Per (workspace, address) `[startMs, endMs, host, mac, ...]`, oldest lease first. */
  snapshot(): unknown[] {
    return writeLru(this.addresses, (leases) => leases.flatMap((l) => [writeNumber(l.startMs), writeNumber(l.endMs), l.holder.host ?? null, l.holder.mac ?? null]));
  }

  /** Replaces the leases with a {@link snapshot} (undefined: none). */
  restore(state: unknown): void {
    readLru(
      this.addresses,
      state,
      (value, at) => {
        const t = readTuples(value, 4, at);
        const leases: Lease[] = [];
        for (let i = Math.max(0, t.length - 4 * MAX_LEASES_PER_ADDRESS); i < t.length; i += 4) {
          const host = readOptionalString(t[i + 2], `${at}.host`);
          const mac = readOptionalString(t[i + 3], `${at}.mac`);
          const holder: LeaseHolder = {};
          if (host) holder.host = host;
          if (mac) holder.mac = mac;
          leases.push({ startMs: readNumber(t[i], `${at}.startMs`), endMs: readNumber(t[i + 1], `${at}.endMs`), holder, attribution: undefined });
        }
        return leases;
      },
      'leases',
    );
    this.slotsByWorkspace.clear();
    this.lastWorkspace = undefined;
    this.lastSlots = undefined;
    for (const [key, slot] of this.addresses.slotItems()) {
      const [workspaceId, address] = splitAddressKey(key);
      this.slotsFor(workspaceId).set(address, slot);
    }
  }

  /** The workspace's address slots, made on its first lease. */
  private slotsFor(workspaceId: string): Map<string, number> {
    let slots = this.slotsByWorkspace.get(workspaceId);
    if (slots === undefined) {
      slots = new Map();
      this.slotsByWorkspace.set(workspaceId, slots);
      if (workspaceId === this.lastWorkspace) this.lastSlots = slots;
    }
    return slots;
  }

  /** Drops an evicted key's slot from the index. */
  private forgetSlot(key: string): void {
    const [workspaceId, address] = splitAddressKey(key);
    const slots = this.slotsByWorkspace.get(workspaceId);
    if (slots === undefined) return;
    slots.delete(address);
    if (slots.size === 0) {
      this.slotsByWorkspace.delete(workspaceId);
      if (workspaceId === this.lastWorkspace) this.lastSlots = undefined;
    }
  }
}

/** `[workspace, address]` of a key of the leases table (`workspace NUL address`; workspace ids hold no NUL). */
function splitAddressKey(key: string): [string, string] {
  const cut = key.indexOf('\u0000');
  return [key.slice(0, cut), key.slice(cut + 1)];
}

function sameHolder(a: Readonly<LeaseHolder>, b: Readonly<LeaseHolder>): boolean {
  return a.host === b.host && a.mac === b.mac;
}

function holderOf(event: LeaseEvent): LeaseHolder {
  const holder: LeaseHolder = {};
  if (typeof event.srcHost === 'string' && event.srcHost !== '') holder.host = event.srcHost;
  if (typeof event.srcMac === 'string' && event.srcMac !== '') holder.mac = event.srcMac.toLowerCase();
  return holder;
}
