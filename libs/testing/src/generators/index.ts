/**
 * Deterministic telemetry generators: the same arguments always give the same events. Events are shaped like
 * what sensors send on POST /v1/events/{type} (canonical field names, RFC 3339 UTC timestamps, ascending `ts`).
 */
export type { NetworkOptions } from './network';
export type { TimelineOptions } from './timeline';
export { networkResolvers, SERVICE_NETWORKS } from './network';
export { benignDnsEvents } from './dns';
export { tunnelDnsEvents, type TunnelDnsOptions } from './dns-tunnel';
export { dnscat2DnsEvents, type Dnscat2Options } from './dns-dnscat2';
export { dns2tcpDnsEvents, type Dns2tcpOptions } from './dns-dns2tcp';
export { iodineDnsEvents, type IodineOptions, type IodineUpstreamEncoding, type IodineDownstreamEncoding } from './dns-iodine';
export { dnsExfiltratorDnsEvents, type DnsExfiltratorOptions } from './dns-dnsexfiltrator';
export { cobaltStrikeDnsEvents, type CobaltStrikeDnsOptions } from './dns-cobalt-strike';
export { flightsimTunnelDnsEvents, type FlightsimTunnelOptions } from './dns-flightsim-tunnel';
export type { TunnelSessionOptions } from './tunnel-session';
export { encodedServiceHostname } from './benign-encoded-names';
export { OAST_DOMAINS, oastDnsEvents, type OastDnsOptions } from './dns-oast';
export { ipEvents } from './ip';
export { httpEvents } from './http';
export { tlsEvents } from './tls';
export { leaseEvents } from './lease';
export { withClientQuirks } from './client-quirks';
export { cdnHostname } from './cdn-hostnames';
export { longTailHostDay, longTailTraffic, type HostDay, type LongTailTrafficOptions } from './benign-long-tail';
