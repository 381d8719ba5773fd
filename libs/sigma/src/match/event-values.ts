import type { EventView } from './event-view';
import { NO_VALUE, SLICE, type FieldValue } from './field-registry';
import type { ScreeningPlan } from './screening-plan';

/**
 * The screened fields' values on one event, each distinct string once with the fields (bits) whose
 * whole value it is: a value shared by several fields (the URL in the keyword field) is scanned
 * once. Fields that are slices of another field's string (URL path, query, host, extension) are not
 * extracted: they are recorded as [start, end) ranges of their parent's value. Reused from event to
 * event (cleared, never rebuilt).
 */
export class EventValues {
  /** Distinct values of the event and the fields (bits) whose whole value each is. */
  readonly distinct: string[] = [];
  readonly holders: number[] = [];
  /** Slices found: the distinct value they lie in, their field's bit and id, [start, end). */
  sliceCount = 0;
  readonly sliceOwner: number[] = [];
  readonly sliceBit: number[] = [];
  readonly sliceField: number[] = [];
  readonly sliceStart: number[] = [];
  readonly sliceEnd: number[] = [];
  private readonly range = new Int32Array(2);

  /** Replaces the values held with those of the plan's fields on `view`. */
  gather(plan: ScreeningPlan, view: EventView): void {
    this.distinct.length = 0;
    this.holders.length = 0;
    this.sliceCount = 0;
    const { readField, readBit, readSlice } = plan;
    const range = this.range;
    let parentValue: string | undefined;
    let parentIndex = 0;
    for (let r = 0; r < readField.length; r++) {
      const bit = readBit[r];
      const slice = readSlice[r];
      if (slice !== undefined) {
        const parent = view.value(slice.parent);
        if (typeof parent === 'string') {
          const found = slice.slice(view, range);
          if (found === NO_VALUE) continue;
          if (found === SLICE) {
            if (parent !== parentValue) parentIndex = this.collect((parentValue = parent), 0);
            this.addSlice(parentIndex, bit, readField[r], range[0], range[1]);
            continue;
          }
        }
      }
      this.collectValue(view.value(readField[r]), bit);
    }
  }

  private collectValue(value: FieldValue, bit: number): void {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') this.collect(value, bit);
    else if (Array.isArray(value)) for (let v = 0; v < value.length; v++) this.collect(String(value[v]), bit);
    else this.collect(String(value), bit);
  }

  /** Adds a value to the distinct values (one string read by several fields is kept once); returns its index. */
  private collect(value: string, bit: number): number {
    const { distinct, holders } = this;
    let d = 0;
    while (d < distinct.length && distinct[d] !== value) d++;
    if (d === distinct.length) {
      distinct.push(value);
      holders.push(bit);
    } else holders[d] |= bit;
    return d;
  }

  private addSlice(owner: number, bit: number, field: number, start: number, end: number): void {
    const k = this.sliceCount++;
    this.sliceOwner[k] = owner;
    this.sliceBit[k] = bit;
    this.sliceField[k] = field;
    this.sliceStart[k] = start;
    this.sliceEnd[k] = end;
  }
}
