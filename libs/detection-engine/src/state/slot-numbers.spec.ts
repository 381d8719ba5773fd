import { SlotNumbers } from './slot-numbers';

describe('SlotNumbers', () => {
  it('keeps each slot’s numbers across growth', () => {
    const numbers = new SlotNumbers(3, 1000, 4);
    for (let slot = 0; slot < 1000; slot++) {
      const at = numbers.reserve(slot);
      numbers.values.set([slot, slot * 2, -slot], at);
    }
    for (let slot = 0; slot < 1000; slot++) {
      const at = numbers.offsetOf(slot);
      expect(Array.from(numbers.values.subarray(at, at + 3))).toEqual([slot, slot * 2, -slot]);
    }
  });

  it('grows by doubling, never past the bound of slots', () => {
    const numbers = new SlotNumbers(2, 100, 8);
    expect(numbers.values.length).toBe(0);
    numbers.reserve(0);
    expect(numbers.values.length).toBe(16);
    numbers.reserve(8);
    expect(numbers.values.length).toBe(32);
    numbers.reserve(40);
    expect(numbers.values.length).toBe(128);
    numbers.reserve(99);
    expect(numbers.values.length).toBe(200);
    expect(numbers.bytesPerSlot).toBe(16);
  });

  it('refuses a width that is not a positive integer', () => {
    expect(() => new SlotNumbers(0, 10)).toThrow(RangeError);
    expect(() => new SlotNumbers(1.5, 10)).toThrow(RangeError);
  });
});
