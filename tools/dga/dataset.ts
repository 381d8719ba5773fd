import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registrableLabel } from '../../libs/detection-engine/src/detections/dga/registrable-label';

/**
 * The labelled data of the DGA model, read from the shared data bundle (`<data>/benign`, `<data>/dga/train`).
 * Every name is reduced to its registrable label, and the split is decided by a hash of the label, so that
 * one label (google.com, google.de) never sits on both sides of a split.
 */
export type Split = 'train' | 'validation' | 'test';

export const BENIGN_LISTS = ['cloudflare-top100k', 'tranco10k', 'majestic-top10k', 'cisco-top20k'] as const;
export type BenignList = (typeof BENIGN_LISTS)[number];

export interface Sample {
  name: string;
  label: string;
  split: Split;
}

export interface DgaSample extends Sample {
  family: string;
}

/** 60 % train, 20 % validation (threshold), 20 % test. */
export function splitOf(label: string): Split {
  const bucket = createHash('sha256').update(label).digest()[0] % 10;
  return bucket < 6 ? 'train' : bucket < 8 ? 'validation' : 'test';
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
}

function toSample(name: string): Sample | undefined {
  const r = registrableLabel(name);
  return r === undefined ? undefined : { name, label: r.label, split: splitOf(r.label) };
}

/** Every entry of one benign list that has a registrable label (per entry, duplicates kept). */
export function benignList(dataDir: string, list: BenignList): Sample[] {
  return lines(join(dataDir, 'benign', `${list}.txt`)).flatMap((name) => toSample(name) ?? []);
}

/** Distinct labels of all benign lists, with their split. */
export function benignLabels(dataDir: string): Sample[] {
  const seen = new Map<string, Sample>();
  for (const list of BENIGN_LISTS) for (const s of benignList(dataDir, list)) if (!seen.has(s.label)) seen.set(s.label, s);
  return [...seen.values()];
}

export function dgaFamilies(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'dga', 'train'))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** Every DGA domain of every family (per domain, duplicates of a label across TLDs kept). */
export function dgaDomains(dataDir: string): DgaSample[] {
  return dgaFamilies(dataDir).flatMap((family) =>
    lines(join(dataDir, 'dga', 'train', `${family}.txt`)).flatMap((name) => {
      const s = toSample(name);
      return s === undefined ? [] : [{ ...s, family }];
    }),
  );
}
