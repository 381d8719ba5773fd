import type { IpEvent, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { observeEvent } from '../../observed-event';
import { batch, iso, T0 } from '../../testing/fixtures';
import type { DetectionHit, Detector, ObservedEvent } from '../detection';

/** Test helpers: IP flows as the detections see them. */
let sequence = 0;

export { T0 };

export function observe(type: TelemetryType, event: TelemetryEvent, workspaceId = 'ws-test'): ObservedEvent {
  const observed = observeEvent(batch(`net-${sequence++}`, type, [event], { workspaceId }), 0);
  if (observed === undefined) throw new Error('event is not observable');
  return observed;
}

export function flow(timeMs: number, fields: Partial<IpEvent> = {}, workspaceId?: string): ObservedEvent {
  const event: IpEvent = {
    ts: iso(timeMs),
    srcIP: '10.0.0.5',
    srcPort: 50_000,
    destIP: '93.184.216.34',
    destPort: 443,
    proto: 'tcp',
    bytesOut: 600,
    bytesIn: 4_000,
    packetsOut: 6,
    packetsIn: 8,
    action: 'allowed',
    duration: 1.5,
    ...fields,
  };
  return observe('ip', event, workspaceId);
}

/** A connection attempt that got nothing back (one SYN out, nothing in). */
export function unanswered(timeMs: number, fields: Partial<IpEvent> = {}): ObservedEvent {
  return flow(timeMs, { bytesOut: 60, packetsOut: 1, bytesIn: 0, packetsIn: 0, duration: 0, ...fields });
}

export function hitsOf(detector: Detector, events: readonly ObservedEvent[]): DetectionHit[] {
  const hits: DetectionHit[] = [];
  for (const event of events) {
    const hit = detector.inspect(event);
    if (hit !== undefined) hits.push(hit);
  }
  return hits;
}

/** The flightsim scan shape: 21 common service ports on each of 10 documentation-range hosts within 30 s. */
export const FLIGHTSIM_SCAN_PORTS = [21, 22, 23, 25, 53, 80, 110, 111, 135, 139, 143, 443, 445, 993, 995, 1723, 3306, 3389, 5900, 8080, 8443];

export function flightsimScan(startMs: number, srcIP = '10.0.0.5'): ObservedEvent[] {
  const events: ObservedEvent[] = [];
  for (let h = 0; h < 10; h++) {
    FLIGHTSIM_SCAN_PORTS.forEach((destPort, p) => {
      const t = startMs + Math.floor(((h * FLIGHTSIM_SCAN_PORTS.length + p) * 30_000) / 210);
      events.push(unanswered(t, { srcIP, destIP: `198.51.100.${10 + h}`, destPort }));
    });
  }
  return events;
}
