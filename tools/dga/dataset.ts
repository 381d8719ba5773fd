import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registrableLabel } from '../../libs/detection-engine/src/detections/dga/registrable-label';

/**
 * The labelled data of the DGA model, read from the shared data bundle (`<data>/benign`, `<data>/dga/train`).
 * Every name is reduced to its registrable label; every split is decided by a hash of the label, so that one
 * label (google.com, google.de) never sits on both sides of a split.
 *
 * Benign labels fall in three slices:
 * - `heldout`: a fifth of the deep-tail labels (every domain with the label is only in the Cloudflare top-100k or
 *   Cisco top-20k, none in a top-10k ranking). Never trained on, never used for a threshold, and left out of the
 *   popularity data the engine ships (tools/dga/build-popularity.ts), so that to the engine they are what the
 *   long tail of real traffic is: names it has never seen. Only the evaluation reads them.
 * - `validation`: a fifth of all labels: thresholds (per-name and per-host) are set on it.
 * - `train`: the rest.
 * DGA labels: 80 % `train`, 20 % `validation` per family; leave-one-family-out training drops a whole family.
 */
export type BenignSlice = 'train' | 'validation' | 'heldout';
export type DgaSplit = 'train' | 'validation';

export const BENIGN_LISTS = ['cloudflare-top100k', 'tranco10k', 'majestic-top10k', 'cisco-top20k'] as const;
export type BenignList = (typeof BENIGN_LISTS)[number];
const TOP10K_LISTS: ReadonlySet<BenignList> = new Set(['tranco10k', 'majestic-top10k']);

export interface BenignLabel {
  label: string;
  /** Every registered domain of the rankings with this label (`example.com`, `example.de`). */
  domains: string[];
  /** Not in any top-10k ranking. */
  deepTail: boolean;
  slice: BenignSlice;
}

export interface DgaSample {
  name: string;
  domain: string;
  label: string;
  family: string;
  split: DgaSplit;
}

function bucket(salt: string, label: string): number {
  return createHash('sha256').update(`${salt}:${label}`).digest().readUInt16BE(0) % 100;
}

/** The held-out slice: 20 % of the deep-tail labels, fixed by a hash of the label. */
export function isHeldOutLabel(label: string, deepTail: boolean): boolean {
  return deepTail && bucket('benign-heldout', label) < 20;
}

function benignSliceOf(label: string, deepTail: boolean): BenignSlice {
  if (isHeldOutLabel(label, deepTail)) return 'heldout';
  return bucket('benign-validation', label) < 20 ? 'validation' : 'train';
}

export function dgaSplitOf(label: string): DgaSplit {
  return bucket('dga-validation', label) < 20 ? 'validation' : 'train';
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
}

/** Every distinct registrable label of the benign rankings with its slice. */
export function benignLabels(dataDir: string): BenignLabel[] {
  const byLabel = new Map<string, { domains: Set<string>; top10k: boolean }>();
  for (const list of BENIGN_LISTS) {
    for (const name of lines(join(dataDir, 'benign', `${list}.txt`))) {
      const r = registrableLabel(name);
      if (r === undefined) continue;
      let entry = byLabel.get(r.label);
      if (entry === undefined) byLabel.set(r.label, (entry = { domains: new Set(), top10k: false }));
      entry.domains.add(r.domain);
      if (TOP10K_LISTS.has(list)) entry.top10k = true;
    }
  }
  return [...byLabel].map(([label, e]) => ({ label, domains: [...e.domains].sort(), deepTail: !e.top10k, slice: benignSliceOf(label, !e.top10k) }));
}

/** Registered domains of the rankings whose label is held out: the popularity data must not contain them. */
export function heldOutDomains(dataDir: string): Set<string> {
  return new Set(benignLabels(dataDir).flatMap((b) => (b.slice === 'heldout' ? b.domains : [])));
}

export function dgaFamilies(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'dga', 'train'))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** Every DGA domain of every family (per domain: the same label under several TLDs repeats). */
export function dgaDomains(dataDir: string): DgaSample[] {
  return dgaFamilies(dataDir).flatMap((family) =>
    lines(join(dataDir, 'dga', 'train', `${family}.txt`)).flatMap((name) => {
      const r = registrableLabel(name);
      return r === undefined ? [] : [{ name, domain: r.domain, label: r.label, family, split: dgaSplitOf(r.label) }];
    }),
  );
}
