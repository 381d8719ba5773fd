import type { SigmaEnrichment } from '../types';

export type Scalar = string | number | boolean;
/** A field's value on one event: absent (undefined/null), one scalar, or several (multi-valued fields). */
export type FieldValue = Scalar | null | undefined | readonly Scalar[];
export type FieldAccessor = (event: Record<string, unknown>, enrichment: SigmaEnrichment | undefined) => FieldValue;

const accessors: FieldAccessor[] = [];
const idsByKey = new Map<string, number>();

/**
 * Interns an accessor under a canonical key ("http:path", "hdr:srcIP") and returns its numeric id.
 * Every rule that reads the same canonical field shares the id, so an event view extracts it once.
 */
export function internField(key: string, accessor: FieldAccessor): number {
  const known = idsByKey.get(key);
  if (known !== undefined) return known;
  accessors.push(accessor);
  idsByKey.set(key, accessors.length - 1);
  return accessors.length - 1;
}

export function accessorOf(id: number): FieldAccessor {
  return accessors[id];
}
