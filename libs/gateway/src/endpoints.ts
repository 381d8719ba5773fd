import type { TelemetryEvent } from '@vigil/contracts';

/** An endpoint is identified by its host name when the sensor knows it, else by its source IP. */
export function endpointsOf(events: TelemetryEvent[]): string[] {
  const seen = new Set<string>();
  for (const event of events) {
    const id = event.srcHost ? `host:${event.srcHost.toLowerCase()}` : event.srcIP ? `ip:${event.srcIP}` : undefined;
    if (id) seen.add(id);
  }
  return [...seen];
}
