import type { TelemetryEvent } from '@vigil/contracts';

/**
 * The distinct endpoints of events added one at a time. An endpoint is identified by its host name when the
 * sensor knows it (`host:<name>`), else by its source IP (`ip:<address>`). Addresses are held as the event's own
 * string and prefixed once at the end: the record packer has already hashed that very string, and a prefixed
 * copy per event had to be built and hashed again.
 */
export class EndpointSet {
  private readonly hosts = new Set<string>();
  private readonly addresses = new Set<string>();

  add(event: TelemetryEvent): void {
    if (event.srcHost) this.hosts.add(`host:${event.srcHost.toLowerCase()}`);
    else if (event.srcIP) this.addresses.add(event.srcIP);
  }

  ids(): string[] {
    const ids = [...this.hosts];
    for (const address of this.addresses) ids.push(`ip:${address}`);
    return ids;
  }
}
