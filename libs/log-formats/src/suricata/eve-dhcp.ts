import { eventOf, rejected, skipped, type RecordOutcome } from '../outcome';
import { countOf, textOf } from '../values';
import { section, type EveHeader, type EveRecord } from './eve-header';

/**
 * `dhcp` → leaseEvent. An ACK grants `assigned_ip` (`renew` when `client_ip` already held it, else `assign`)
 * for `lease_time` (extended logging); a RELEASE or DECLINE ends the client's lease. Other messages are skipped.
 * Without extended logging Suricata logs ACKs only, and older versions no `dhcp_type`: a reply with an
 * assigned address is then read as an ACK.
 */
export function eveDhcpEvent(r: EveRecord, header: EveHeader): RecordOutcome {
  const dhcp = section(r, 'dhcp');
  const assigned = usable(textOf(dhcp.assigned_ip));
  const client = usable(textOf(dhcp.client_ip));
  const messageType = textOf(dhcp.dhcp_type)?.toLowerCase() ?? (textOf(dhcp.type) === 'reply' && assigned !== undefined ? 'ack' : undefined);
  const common = { ts: header.ts, srcMac: textOf(dhcp.client_mac), srcHost: textOf(dhcp.hostname) };
  if (messageType === 'release' || messageType === 'decline') {
    const address = client ?? usable(textOf(dhcp.requested_ip)) ?? (messageType === 'release' ? usable(header.srcIP) : undefined);
    if (address === undefined) return rejected('missing_srcIP');
    return eventOf('lease', { ...common, srcIP: address, type: messageType, termination: true });
  }
  if (messageType !== 'ack' || assigned === undefined) return skipped('dhcp_no_lease_change');
  return eventOf('lease', { ...common, srcIP: assigned, type: client === assigned ? 'renew' : 'assign', duration: countOf(dhcp.lease_time) });
}

function usable(address: string | undefined): string | undefined {
  return address === '0.0.0.0' || address === '::' ? undefined : address;
}
