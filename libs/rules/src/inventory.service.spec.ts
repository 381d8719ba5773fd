import { DNS_TUNNEL, OAST_DOMAIN } from '@vigil/detection-engine';
import { InventoryService } from './inventory.service';

describe('InventoryService', () => {
  const inventory = new InventoryService();

  it('defines every threat and flag the built-in detections raise', () => {
    for (const detection of [DNS_TUNNEL, OAST_DOMAIN]) {
      expect(inventory.threats()[detection.threat]).toEqual(expect.objectContaining({ title: expect.any(String) }));
      for (const flag of detection.flags) expect(inventory.flags()[flag]).toBeDefined();
    }
  });

  it('gives every threat an integer severity from 1 to 5 and every flag a known type', () => {
    for (const threat of Object.values(inventory.threats())) expect([1, 2, 3, 4, 5]).toContain(threat.severity);
    for (const flag of Object.values(inventory.flags())) expect(['category', 'feature']).toContain(flag.type);
  });
});
