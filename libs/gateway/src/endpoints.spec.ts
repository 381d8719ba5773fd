import type { TelemetryEvent } from '@vigil/contracts';
import { endpointsOf } from './endpoints';

const event = (fields: Partial<TelemetryEvent>): TelemetryEvent => ({ ts: '2026-11-29T00:00:00.000Z', ...fields }) as TelemetryEvent;

describe('endpointsOf', () => {
  it('names an endpoint by its host name when the sensor knows it, else by its source IP, each once', () => {
    const ids = endpointsOf([
      event({ srcIP: '10.0.0.1' }),
      event({ srcIP: '10.0.0.2', srcHost: 'Laptop-7' }),
      event({ srcIP: '10.0.0.3', srcHost: 'laptop-7' }),
      event({ srcIP: '10.0.0.1' }),
      event({ srcIP: 'fd00::1' }),
      event({}),
      event({ srcIP: '10.0.0.2' }),
    ]);
    expect(ids.sort()).toEqual(['host:laptop-7', 'ip:10.0.0.1', 'ip:10.0.0.2', 'ip:fd00::1']);
  });
});
