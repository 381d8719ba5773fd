import { eventOf, rejected, skipped, type RecordOutcome } from '../outcome';
import { numberOf, textOf } from '../values';
import { zeekTime } from './zeek-time';
import type { ZeekRecord } from './zeek-record';

/**
 * dhcp.log → leaseEvent (srcIP is the leased address, as the API expects). Zeek ≥ 2.6 logs one record per DHCP
 * conversation with its `msg_types`: an ACK grants `assigned_addr` for `lease_time` (`renew` when the client
 * already held that address, else `assign`), a RELEASE or DECLINE ends the client's lease. Conversations that
 * change no lease (DISCOVER/OFFER only, INFORM, NAK) are skipped. Zeek ≤ 2.5 logged only granted leases
 * (`assigned_ip`).
 */
export function zeekDhcpEvent(r: ZeekRecord): RecordOutcome {
  const ts = zeekTime(r.ts);
  if (ts === undefined) return rejected(r.ts === undefined ? 'missing_ts' : 'invalid_ts');
  const srcMac = textOf(r.mac);
  const srcHost = textOf(r.host_name);
  if (r.msg_types === undefined && r.assigned_ip !== undefined) {
    return eventOf('lease', { ts, srcIP: textOf(r.assigned_ip), srcMac, type: 'assign', duration: numberOf(r.lease_time) });
  }
  const messages = (Array.isArray(r.msg_types) ? r.msg_types.map(String) : String(r.msg_types ?? '').split(',')).map((m) => m.toUpperCase());
  const client = usable(textOf(r.client_addr));
  if (messages.includes('RELEASE') || messages.includes('DECLINE')) {
    const address = client ?? usable(textOf(r.requested_addr));
    if (address === undefined) return rejected('missing_srcIP');
    return eventOf('lease', { ts, srcIP: address, srcMac, srcHost, type: messages.includes('RELEASE') ? 'release' : 'decline', termination: true });
  }
  const assigned = usable(textOf(r.assigned_addr));
  if (!messages.includes('ACK') || assigned === undefined) return skipped('dhcp_no_lease_change');
  return eventOf('lease', {
    ts,
    srcIP: assigned,
    srcMac,
    srcHost: srcHost ?? textOf(r.client_fqdn),
    type: client === assigned ? 'renew' : 'assign',
    duration: numberOf(r.lease_time),
  });
}

function usable(address: string | undefined): string | undefined {
  return address === '0.0.0.0' || address === '::' ? undefined : address;
}
