import type { DnsEvent } from '@vigil/contracts';
import { seeded } from './seeded';
import { checkTunnelDomain, sessionEvents, type TunnelSessionOptions } from './tunnel-session';

export interface FlightsimTunnelOptions extends TunnelSessionOptions {
  /** Default `sandbox.alphasoc.xyz`, flightsim's own zone. */
  domain?: string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * AlphaSOC flightsim's `tunnel-dns` module: TXT look-ups of a label of 30 random letters (drawn from both cases,
 * then lower-cased) under its sandbox zone, one every 200 ms (each query's timeout, waited out in full).
 */
export function flightsimTunnelDnsEvents(n: number, opts: FlightsimTunnelOptions): DnsEvent[] {
  const domain = opts.domain ?? 'sandbox.alphasoc.xyz';
  checkTunnelDomain(domain);
  const rng = seeded(`flightsim-tunnel:${domain}`, opts.seed);
  return sessionEvents(rng, () => ({ name: `${rng.string(LETTERS, 30).toLowerCase()}.${domain}`, qtype: 'TXT', gapMs: 200 }), n, opts);
}
