/**
 * Deterministic telemetry generators: the same arguments always give the same events. Events are shaped like
 * what sensors send on POST /v1/events/{type} (canonical field names, RFC 3339 UTC timestamps, ascending `ts`).
 */
export type { NetworkOptions } from './network';
export type { TimelineOptions } from './timeline';
export { networkResolvers, SERVICE_NETWORKS } from './network';
export { benignDnsEvents } from './dns';
export { tunnelDnsEvents, type TunnelDnsOptions } from './dns-tunnel';
export { OAST_DOMAINS, oastDnsEvents, type OastDnsOptions } from './dns-oast';
export { ipEvents } from './ip';
export { httpEvents } from './http';
export { tlsEvents } from './tls';
export { leaseEvents } from './lease';
export { withClientQuirks } from './client-quirks';
