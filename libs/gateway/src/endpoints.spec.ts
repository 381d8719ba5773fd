import type { TelemetryEvent } from '@vigil/contracts';
import { EndpointSet } from './endpoints';

const event = (fields: Partial<TelemetryEvent>): TelemetryEvent => ({ ts: '2026-11-29T00:00:00.000Z', ...fields }) as TelemetryEvent;

describe('EndpointSet', () => {
  it('names an endpoint by its host name when the sensor knows it, else by its source IP, each once', () => {
    const endpoints = new EndpointSet();
    for (const sent of [
      event({ srcIP: '10.0.0.1' }),
      event({ srcIP: '10.0.0.2', srcHost: 'Laptop-7' }),
      event({ srcIP: '10.0.0.3', srcHost: 'laptop-7' }),
      event({ srcIP: '10.0.0.1' }),
      event({ srcIP: 'fd00::1' }),
      event({}),
      event({ srcIP: '10.0.0.2' }),
    ]) {
      endpoints.add(sent);
    }
    expect(endpoints.ids().sort()).toEqual(['host:laptop-7', 'ip:10.0.0.1', 'ip:10.0.0.2', 'ip:fd00::1']);
  });
});
