import { SharedKeyTable } from '../../state/shared-keys';
import type { Detector } from '../detection';
import { type BeaconOptions, BeaconDetector } from './beacon';
import { CleartextProtocolDetector } from './cleartext';
import { type IcmpTunnelOptions, IcmpTunnelDetector } from './icmp-tunnel';
import { LargeTransferDetector } from './large-transfer';
import { LongConnectionDetector, type StrobeOptions, StrobeDetector } from './long-connection';
import { type PortScanOptions, PortScanDetector } from './port-scan';
import { DirectSmtpDetector, MxLookupDetector } from './spambot';
import { SshNonStandardPortDetector } from './ssh-port';
import { UnusualPortDetector, UnusualPortVolumeDetector } from './unusual-port';

export { BEACON_IP, BeaconDetector, DEFAULT_BEACON_OPTIONS, type BeaconOptions } from './beacon';
export { CLEARTEXT_PROTOCOL, CleartextProtocolDetector } from './cleartext';
export { ICMP_TUNNEL, IcmpTunnelDetector, type IcmpTunnelOptions } from './icmp-tunnel';
export { HIGH_VOLUME_FTP, LARGE_OUTBOUND_TRANSFER, LARGE_SSH_TRANSFER, LargeTransferDetector } from './large-transfer';
export { LONG_CONNECTION, LongConnectionDetector, STROBE, StrobeDetector, type StrobeOptions } from './long-connection';
export { NETWORK_ATTACK_TACTICS, NETWORK_ATTACK_TECHNIQUES, NETWORK_FLAGS, NETWORK_THREATS } from './network-inventory';
export { PORT_SCAN_HORIZONTAL, PORT_SCAN_VERTICAL, PortScanDetector, type PortScanOptions } from './port-scan';
export { DirectSmtpDetector, MX_LOOKUP_VOLUME, MxLookupDetector, SPAMBOT_SMTP } from './spambot';
export { SSH_NON_STANDARD_PORT, SshNonStandardPortDetector } from './ssh-port';
export { UNUSUAL_NETWORK_PORT, UNUSUAL_PORT_VOLUME, UnusualPortDetector, UnusualPortVolumeDetector } from './unusual-port';
export { isPublicAddress } from './ip-ranges';

export interface NetworkDetectorOptions {
  /** Bound of every keyed state (per detector). Beaconing keeps at most min(maxKeys, 20,000) pairs. */
  maxKeys?: number;
  /** Source IPs of the organisation's mail servers and relays (not reported for SMTP or MX behaviour). */
  mailServers?: readonly string[];
  /** CIDR blocks whose periodic connections are expected (not reported as beacons). */
  beaconAllowDestinations?: readonly string[];
  portScan?: Partial<Omit<PortScanOptions, 'maxKeys'>>;
  icmpTunnel?: Partial<Omit<IcmpTunnelOptions, 'maxKeys' | 'pairKeys'>>;
  beacon?: Partial<Omit<BeaconOptions, 'maxKeys' | 'allowDestinations' | 'pairKeys'>>;
  strobe?: Partial<Omit<StrobeOptions, 'maxKeys' | 'pairKeys'>>;
  /** Seconds; default 3,600. */
  longConnectionMinS?: number;
}

/** Every network-behaviour detector, configured; the engine registers them next to the DNS ones. */
export function createNetworkDetectors(opts: NetworkDetectorOptions = {}): Detector[] {
  const maxKeys = opts.maxKeys ?? 100_000;
  const bounded = { maxKeys };
  // Every flow is looked up under its (host, destination) key by each per-pair detection: one table finds it for all.
  const pairKeys = new SharedKeyTable();
  const perPair = { maxKeys, pairKeys };
  const mailServers = opts.mailServers ?? [];
  return [
    new PortScanDetector('vertical', { ...opts.portScan, ...bounded }),
    new PortScanDetector('horizontal', { ...opts.portScan, ...bounded }),
    new IcmpTunnelDetector({ ...opts.icmpTunnel, ...perPair }),
    new SshNonStandardPortDetector(),
    new LargeTransferDetector('ssh', perPair),
    new LargeTransferDetector('ftp', perPair),
    new LargeTransferDetector('any', perPair),
    new DirectSmtpDetector({ mailServers, ...bounded }),
    new MxLookupDetector({ mailServers, ...bounded }),
    new CleartextProtocolDetector(),
    new UnusualPortDetector(),
    new UnusualPortVolumeDetector(bounded),
    new BeaconDetector({ ...opts.beacon, allowDestinations: opts.beaconAllowDestinations ?? [], maxKeys: Math.min(maxKeys, 20_000), pairKeys }),
    new LongConnectionDetector(opts.longConnectionMinS),
    new StrobeDetector({ ...opts.strobe, ...perPair }),
  ];
}
