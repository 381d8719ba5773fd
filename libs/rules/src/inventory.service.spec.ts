import { DetectionEngine, IndicatorStore } from '@vigil/detection-engine';
import { InventoryService } from './inventory.service';

describe('InventoryService', () => {
  const inventory = new InventoryService();

  it('defines every threat and flag the built-in detections raise', () => {
    const definitions = new DetectionEngine({ intel: new IndicatorStore({ seed: false }) }).definitions();
    expect(definitions.length).toBeGreaterThan(20);
    for (const detection of definitions) {
      expect({ id: detection.id, threat: inventory.threats()[detection.threat] }).toEqual({ id: detection.id, threat: expect.objectContaining({ title: expect.any(String) }) });
      for (const flag of detection.flags) expect({ id: detection.id, flag, defined: inventory.flags()[flag] !== undefined }).toEqual({ id: detection.id, flag, defined: true });
    }
  });

  it('gives every threat an integer severity from 1 to 5 and every flag a known type', () => {
    for (const threat of Object.values(inventory.threats())) expect([1, 2, 3, 4, 5]).toContain(threat.severity);
    for (const flag of Object.values(inventory.flags())) expect(['category', 'feature']).toContain(flag.type);
  });
});
