import { rejected, skipped, type RecordOutcome } from '../outcome';
import { textOf } from '../values';
import { eveDhcpEvent } from './eve-dhcp';
import { eveDnsEvents } from './eve-dns';
import { eveFlowEvent } from './eve-flow';
import { eveHeader, type EveHeader, type EveRecord } from './eve-header';
import { eveHttpEvent } from './eve-http';
import { eveTlsEvent } from './eve-tls';

const MAPPERS: Readonly<Record<string, (r: EveRecord, header: EveHeader) => RecordOutcome>> = {
  dns: eveDnsEvents,
  flow: eveFlowEvent,
  http: eveHttpEvent,
  tls: eveTlsEvent,
  dhcp: eveDhcpEvent,
};

/** One Suricata EVE record → events by `event_type`; other types (alert, stats, fileinfo, ...) are skipped. */
export function suricataEveEvents(r: EveRecord): RecordOutcome {
  const eventType = textOf(r.event_type)?.toLowerCase();
  if (eventType === undefined) return rejected('missing_event_type');
  const mapper = MAPPERS[eventType];
  if (mapper === undefined) return skipped(`event_type_${eventType.replace(/[^a-z0-9_]/g, '_')}`);
  const header = eveHeader(r);
  if (header === undefined) return rejected(r.timestamp === undefined ? 'missing_ts' : 'invalid_ts');
  return mapper(r, header);
}
