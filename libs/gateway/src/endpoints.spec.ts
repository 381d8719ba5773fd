import type { TelemetryEvent } from '@vigil/contracts';
import { endpointHash, EndpointSet, packedEndpointAt } from './endpoints';

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

  it('packs its ids into one string with their ends and hashes, any character included', () => {
    const endpoints = new EndpointSet();
    const hosts = ['a', 'line\nbreak', 'ünïcode-🛰', '', 'x'.repeat(300)];
    for (const srcHost of hosts) endpoints.add(event({ srcHost, srcIP: '10.1.1.1' }));
    const packed = endpoints.packed();
    const ids = endpoints.ids();
    expect(Array.from({ length: packed.ends.length }, (_, i) => packedEndpointAt(packed, i))).toEqual(ids);
    expect(Array.from(packed.hashes)).toEqual(ids.map(endpointHash));
    expect(new EndpointSet().packed().ends).toHaveLength(0);
  });

  it('hashes ids to 52 bits that tell a day of distinct ids apart', () => {
    const hashes = new Set<number>();
    let outOfRange = 0;
    for (let i = 0; i < 200_000; i++) {
      const hash = endpointHash(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      if (!(Number.isSafeInteger(hash) && hash >= 0 && hash < 2 ** 52)) outOfRange++;
      hashes.add(hash);
    }
    expect(outOfRange).toBe(0);
    expect(hashes.size).toBe(200_000);
  });
});
