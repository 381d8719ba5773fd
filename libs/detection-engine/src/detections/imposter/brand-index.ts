/**
 * Look-alike matching of registrable labels against popular brands' labels: homoglyph substitutions, bit-flips
 * of one character, one edit (insert, delete, substitute, swap of neighbours) and hyphenated combinations.
 */
import { BoundedMemo } from '../../bounded-memo';

export type ImposterTechnique = 'homoglyph' | 'bitsquat' | 'typosquat' | 'combosquat';

export interface ImposterMatch {
  brand: string;
  technique: ImposterTechnique;
  /** Homoglyphs only: a digit or `$` stands for a letter (`paypa1`), which no innocent spelling does. */
  digitGlyph?: boolean;
  /** One-edit look-alikes: the edit changes the first character (`feddit`, `pcloud`); typists rarely slip there. */
  firstCharacter?: boolean;
  /**
   * One-edit look-alikes: the edit is a slip of the fingers (a neighbouring key, two neighbouring letters swapped,
   * a letter doubled, an inner letter left out: `goole`, `wlamart`), which is what typo-squatters register; an
   * innocent name one edit from a brand is usually another word (`pcloud`, `stripo`, `tawitter`).
   */
  typingSlip?: boolean;
}

/** Brand labels shorter than this are skipped: short labels have too many innocent neighbours. */
export const MIN_BRAND_LENGTH = 5;
/** One edit is only a typo of a brand at least this long. */
export const MIN_TYPO_BRAND_LENGTH = 6;

/** Characters and sequences that pass for others in a domain name (after lower-casing). */
const HOMOGLYPHS: [RegExp, string][] = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/cl/g, 'd'],
  [/0/g, 'o'],
  [/1/g, 'l'],
  [/3/g, 'e'],
  [/4/g, 'a'],
  [/5/g, 's'],
  [/7/g, 't'],
  [/8/g, 'b'],
  [/\$/g, 's'],
];

function unglyph(label: string): string {
  let out = label;
  for (const [pattern, replacement] of HOMOGLYPHS) out = out.replace(pattern, replacement);
  return out.replace(/i/g, 'l');
}

const HOST_CHARS = /^[a-z0-9-]$/;
const DIGIT_GLYPH = /[0-9$]/;

/** Where a one-edit look-alike differs from its brand. */
function editPlace(label: string, brand: string): { firstCharacter: boolean } {
  return { firstCharacter: label[0] !== brand[0] };
}

const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** QWERTY neighbours of each key: left and right, and the two keys touching it in the rows above and below. */
const KEY_NEIGHBOURS: ReadonlyMap<string, string> = (() => {
  const out = new Map<string, string>();
  KEY_ROWS.forEach((row, r) => {
    for (let i = 0; i < row.length; i++) {
      const near = [row[i - 1], row[i + 1], KEY_ROWS[r - 1]?.[i], KEY_ROWS[r - 1]?.[i + 1], KEY_ROWS[r + 1]?.[i - 1], KEY_ROWS[r + 1]?.[i]];
      out.set(row[i], near.filter((k): k is string => k !== undefined).join(''));
    }
  });
  return out;
})();

/** Whether `label`, one edit from `brand`, differs from it by a slip of the fingers (see {@link ImposterMatch.typingSlip}). */
export function isTypingSlip(label: string, brand: string): boolean {
  let i = 0;
  while (i < label.length && i < brand.length && label[i] === brand[i]) i++;
  if (label.length + 1 === brand.length) {
    // An inner letter left out; of a run of one letter any may be the one (`yaho` drops an inner `o` of `yahoo`).
    let first = i;
    while (first > 0 && brand[first - 1] === brand[i]) first--;
    return i > 0 && first < brand.length - 1;
  }
  if (label.length === brand.length + 1) return label[i] === label[i - 1] || label[i] === label[i + 1]; // a letter doubled
  if (label.length !== brand.length || i >= label.length) return false;
  if (label.slice(i + 1) === brand.slice(i + 1)) return KEY_NEIGHBOURS.get(brand[i])?.includes(label[i]) ?? false; // a neighbouring key
  return label[i] === brand[i + 1] && label[i + 1] === brand[i] && label.slice(i + 2) === brand.slice(i + 2); // neighbours swapped
}

/**
 * Words phishing domains put next to a brand (`paypal-secure-login`). A brand beside other words is only a
 * combosquat with one of these: brands that are also common words (`example`, `target`) otherwise flag
 * innocent names such as `tunnel-example`.
 */
export const LURE_WORDS: ReadonlySet<string> = new Set([
  'account', 'accounts', 'alert', 'auth', 'billing', 'confirm', 'help', 'helpdesk', 'id', 'invoice', 'login',
  'logon', 'mail', 'online', 'pay', 'payment', 'password', 'portal', 'recovery', 'refund', 'reset', 'secure',
  'security', 'service', 'services', 'signin', 'sso', 'support', 'unlock', 'update', 'verify', 'verification',
  'wallet', 'web', 'webmail',
]);

function isOneBitFlip(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differing = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      if (differing !== -1) return false;
      differing = i;
    }
  }
  if (differing === -1) return false;
  const x = a.charCodeAt(differing) ^ b.charCodeAt(differing);
  return (x & (x - 1)) === 0 && HOST_CHARS.test(a[differing]);
}

function differingPositions(a: string, b: string): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** The labels one flipped bit away from `label` whose changed character is still a host-name character. */
function bitFlips(label: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < label.length; i++) {
    for (let bit = 0; bit < 8; bit++) {
      const ch = String.fromCharCode(label.charCodeAt(i) ^ (1 << bit));
      if (/^[a-z0-9-]$/.test(ch)) out.push(label.slice(0, i) + ch + label.slice(i + 1));
    }
  }
  return out;
}

function deletions(label: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < label.length; i++) out.push(label.slice(0, i) + label.slice(i + 1));
  return out;
}

/** Characters a host-name label may hold (after lower-casing). */
const LABEL_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-';

/** The labels one slip of the fingers from `label`, as {@link isTypingSlip} judges them: every one edit, kept if a slip. */
export function typingSlips(label: string): string[] {
  const edits = new Set([...deletions(label), ...swaps(label)]);
  for (let i = 0; i <= label.length; i++) {
    for (const ch of LABEL_CHARS) {
      edits.add(label.slice(0, i) + ch + label.slice(i));
      if (i < label.length) edits.add(label.slice(0, i) + ch + label.slice(i + 1));
    }
  }
  return [...edits].filter((edit) => edit !== label && isTypingSlip(edit, label));
}

function swaps(label: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < label.length; i++) {
    if (label[i] !== label[i + 1]) out.push(label.slice(0, i) + label[i + 1] + label[i] + label.slice(i + 2));
  }
  return out;
}

/** An index of brand labels built once; `match` costs a few map look-ups per character of the label. */
export class BrandIndex {
  private readonly brands = new Set<string>();
  /** Homoglyph-normalised form → brand. */
  private readonly byGlyphForm = new Map<string, string>();
  /** One-character deletions of each typo-eligible brand → brand (symmetric-delete index for one edit). */
  private readonly byDeletion = new Map<string, string>();
  /**
   * One-bit flips of the brands too short for typos (5 characters) → brand: a bit-flip is a memory or line error,
   * not a person's choice, so it is worth matching where other edits are not.
   */
  private readonly byBitFlip = new Map<string, string>();
  /**
   * Slips of the fingers on the brands too short for any one edit (`yhaoo`, `chhase`) → brand: a narrower set
   * than every edit, and the evidence score still has to carry them.
   */
  private readonly bySlip = new Map<string, string>();

  constructor(brandLabels: Iterable<string>) {
    for (const brand of brandLabels) {
      if (brand.length < MIN_BRAND_LENGTH || !/^[a-z][a-z0-9-]*$/.test(brand)) continue;
      this.brands.add(brand);
      if (!this.byGlyphForm.has(unglyph(brand))) this.byGlyphForm.set(unglyph(brand), brand);
      if (brand.length >= MIN_TYPO_BRAND_LENGTH) {
        for (const d of deletions(brand)) if (!this.byDeletion.has(d)) this.byDeletion.set(d, brand);
      } else {
        for (const f of bitFlips(brand)) if (!this.byBitFlip.has(f)) this.byBitFlip.set(f, brand);
        for (const slip of typingSlips(brand)) if (!this.bySlip.has(slip)) this.bySlip.set(slip, brand);
      }
    }
  }

  get size(): number {
    return this.brands.size;
  }

  /**
   * Labels already matched (most DNS names repeat; matching builds every deletion and swap of the label).
   * Matches are shared: callers must not change them.
   */
  private readonly matched = new BoundedMemo<ImposterMatch | null>(8_192, (label) => this.matchUncached(label) ?? null, 63);

  /** The brand `label` imitates, or undefined (a brand's own label never matches). */
  match(label: string): ImposterMatch | undefined {
    return this.matched.get(label) ?? undefined;
  }

  private matchUncached(label: string): ImposterMatch | undefined {
    if (this.brands.has(label) || label.length < MIN_BRAND_LENGTH - 1) return undefined;
    const glyphBrand = this.byGlyphForm.get(unglyph(label));
    if (glyphBrand !== undefined && glyphBrand !== label) {
      if (isOneBitFlip(label, glyphBrand)) return { brand: glyphBrand, technique: 'bitsquat', ...editPlace(label, glyphBrand) };
      return { brand: glyphBrand, technique: 'homoglyph', digitGlyph: DIGIT_GLYPH.test(label) };
    }
    const typo = this.oneEditBrand(label);
    if (typo !== undefined) {
      return { brand: typo, technique: isOneBitFlip(label, typo) ? 'bitsquat' : 'typosquat', ...editPlace(label, typo), typingSlip: isTypingSlip(label, typo) };
    }
    const flipped = this.byBitFlip.get(label);
    if (flipped !== undefined) return { brand: flipped, technique: 'bitsquat', ...editPlace(label, flipped) };
    const slipped = this.bySlip.get(label);
    if (slipped !== undefined) return { brand: slipped, technique: 'typosquat', ...editPlace(label, slipped), typingSlip: true };
    const tokens = label.split('-');
    if (tokens.length > 1 && tokens.some((token) => LURE_WORDS.has(token))) {
      // The brand may itself be disguised inside the combination (`micros0ft-login`).
      for (const token of tokens) {
        if (this.brands.has(token)) return { brand: token, technique: 'combosquat' };
        const disguised = this.byGlyphForm.get(unglyph(token));
        if (disguised !== undefined && !LURE_WORDS.has(token)) return { brand: disguised, technique: 'combosquat', digitGlyph: DIGIT_GLYPH.test(token) };
      }
    }
    return undefined;
  }

  /** Whether `label` is one of the indexed brands. */
  has(label: string): boolean {
    return this.brands.has(label);
  }

  private oneEditBrand(label: string): string | undefined {
    if (label.length + 1 < MIN_TYPO_BRAND_LENGTH) return undefined;
    // Insertion in the label (label minus one char is a brand).
    for (const d of deletions(label)) if (this.brands.has(d) && d.length >= MIN_TYPO_BRAND_LENGTH) return d;
    // Deletion from the brand (the label is a brand minus one char).
    const deleted = this.byDeletion.get(label);
    if (deleted !== undefined) return deleted;
    // Substitution: both lose the same position (the same deletion at different positions is two edits).
    for (const d of deletions(label)) {
      const brand = this.byDeletion.get(d);
      if (brand !== undefined && brand.length === label.length && differingPositions(brand, label) === 1) return brand;
    }
    for (const s of swaps(label)) if (this.brands.has(s) && s.length >= MIN_TYPO_BRAND_LENGTH) return s;
    return undefined;
  }
}
