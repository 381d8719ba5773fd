import type { TelemetryEvent } from '@vigil/contracts';

/** An endpoint is identified by its host name when the sensor knows it, else by its source IP. */
export function endpointIdOf(event: TelemetryEvent): string | undefined {
  return event.srcHost ? `host:${event.srcHost.toLowerCase()}` : event.srcIP ? `ip:${event.srcIP}` : undefined;
}

/** The distinct endpoint ids of `events`. */
export function endpointsOf(events: readonly TelemetryEvent[]): string[] {
  const seen = new Set<string>();
  for (const event of events) {
    const id = endpointIdOf(event);
    if (id) seen.add(id);
  }
  return [...seen];
}
