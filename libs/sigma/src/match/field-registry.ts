import type { SigmaEnrichment } from '../types';
import type { EventView } from './event-view';

export type Scalar = string | number | boolean;
/** A field's value on one event: absent (undefined/null), one scalar, or several (multi-valued fields). */
export type FieldValue = Scalar | null | undefined | readonly Scalar[];
/** Reads one field; `view` gives access to values derived once per event (see `derivedSlot`). */
export type FieldAccessor = (event: Record<string, unknown>, enrichment: SigmaEnrichment | undefined, view: EventView) => FieldValue;

/** What a slice accessor found: the field is a slice of its parent's string (written to `out` as [start, end)), absent, or must be read on its own. */
export const SLICE = 1;
export const NO_VALUE = 0;
export const OWN_VALUE = -1;
export type SliceAccessor = (view: EventView, out: Int32Array) => typeof SLICE | typeof NO_VALUE | typeof OWN_VALUE;

/** A field that is usually a slice of another field's string (URL path of the URL): scanning the parent covers it. */
export interface FieldSlice {
  parent: number;
  slice: SliceAccessor;
}

/** Where a pre-filter atom must lie in a value: anywhere in it, all of it, at its start or at its end. */
export type AtomKind = 'contains' | 'exact' | 'prefix' | 'suffix';
export interface ScreenAtom {
  kind: AtomKind;
  /** Lower-cased. */
  text: string;
}
/** A translated atom that every event satisfies (the field is a constant that holds it). */
export const ALWAYS = 'always';

/**
 * A field the pre-filter screens through another field, with the atoms rules ask of it translated
 * once at build time instead of the field's values being computed per event (firewall action
 * synonyms: the raw action is screened for every spelling of the rule's value). `source` undefined:
 * the field is a constant and `translate` decides each atom outright. Translated atoms on `source`
 * must hold on every event whose own values hold the original atom (they may hold on more).
 */
export interface FieldScreen {
  source: number | undefined;
  translate(atom: ScreenAtom): readonly ScreenAtom[] | typeof ALWAYS;
}

const accessors: FieldAccessor[] = [];
const slices: Array<FieldSlice | undefined> = [];
const parts: Array<readonly number[] | undefined> = [];
const screens: Array<FieldScreen | undefined> = [];
const idsByKey = new Map<string, number>();
let derivedSlots = 0;

/**
 * Interns an accessor under a canonical key ("http:path", "hdr:srcIP") and returns its numeric id.
 * Every rule that reads the same canonical field shares the id, so an event view extracts it once.
 */
export function internField(key: string, accessor: FieldAccessor, slice?: FieldSlice, madeOf?: readonly number[], screen?: FieldScreen): number {
  const known = idsByKey.get(key);
  if (known !== undefined) return known;
  accessors.push(accessor);
  slices.push(slice);
  parts.push(madeOf);
  screens.push(screen);
  idsByKey.set(key, accessors.length - 1);
  return accessors.length - 1;
}

export function accessorOf(id: number): FieldAccessor {
  return accessors[id];
}

/** How the field lies in another field's string, for fields that are slices of one. */
export function sliceOf(id: number): FieldSlice | undefined {
  return slices[id];
}

/**
 * For a field whose values are the values of other fields (keyword search), those fields; the
 * pre-filter reads them instead. Their values may only be a superset of the field's own.
 */
export function partsOf(id: number): readonly number[] | undefined {
  return parts[id];
}

/** How the pre-filter screens the field through another one, for fields screened that way. */
export function screenOf(id: number): FieldScreen | undefined {
  return screens[id];
}

const lowerCaseLists = new WeakSet<readonly Scalar[]>();

/** Marks a constant list of lower-case strings a field returns: views hand it out as its own string and lower-cased forms, building neither. */
export function lowerCaseList(list: readonly string[]): readonly string[] {
  Object.freeze(list);
  lowerCaseLists.add(list);
  return list;
}

export function isLowerCaseList(value: FieldValue): value is readonly string[] {
  return Array.isArray(value) && lowerCaseLists.has(value);
}

/** Reserves a per-event cache slot for a value several fields derive from (parsed URL, normalised query name). */
export function derivedSlot(): number {
  return derivedSlots++;
}
