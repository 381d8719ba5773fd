import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/**
 * How popular a registered domain is, from public rankings (Tranco, Majestic, Cloudflare Radar, Cisco
 * Umbrella; built by tools/dga/build-popularity.ts). The lists come alphabetically sorted, so the tiers are
 * derived from how many rankings list a domain, not from a rank:
 * - `top1k`: the 1,000 domains listed by most rankings (ties: most Cisco host names, then name);
 * - `top10k`: listed in a top-10k ranking (Tranco or Majestic);
 * - `top100k`: listed in any ranking (Cloudflare top-100k, Cisco top-20k host names).
 */
export type PopularityTier = 'top1k' | 'top10k' | 'top100k';

export const POPULARITY_TIERS: readonly PopularityTier[] = ['top1k', 'top10k', 'top100k'];

export const DEFAULT_POPULARITY_PATH = join(__dirname, '..', '..', 'data', 'popularity', 'popularity.txt.br');

const HEADER = '# vigil popularity v1';

export class PopularitySet {
  private constructor(private readonly tiers: ReadonlyMap<string, PopularityTier>) {}

  /** Parses the text format: the header line, then `[tier]` sections of one registered domain per line. */
  static fromText(text: string): PopularitySet {
    const lines = text.split('\n');
    if (lines[0] !== HEADER) throw new Error(`popularity: expected header "${HEADER}"`);
    const tiers = new Map<string, PopularityTier>();
    let tier: PopularityTier | undefined;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line.length === 0) continue;
      const section = /^\[(.+)\]$/.exec(line);
      if (section !== null) {
        if (!POPULARITY_TIERS.includes(section[1] as PopularityTier)) throw new Error(`popularity: unknown tier ${section[1]} on line ${i + 1}`);
        tier = section[1] as PopularityTier;
      } else if (tier === undefined) {
        throw new Error(`popularity: domain before any [tier] on line ${i + 1}`);
      } else if (!tiers.has(line)) {
        tiers.set(line, tier);
      }
    }
    return new PopularitySet(tiers);
  }

  static serialise(entries: Iterable<[string, PopularityTier]>): string {
    const byTier = new Map<PopularityTier, string[]>(POPULARITY_TIERS.map((t) => [t, []]));
    for (const [domain, tier] of entries) byTier.get(tier)!.push(domain);
    const sections = POPULARITY_TIERS.map((t) => `[${t}]\n${byTier.get(t)!.sort().join('\n')}`);
    return `${HEADER}\n${sections.join('\n')}\n`;
  }

  /** Reads a brotli-compressed (`.br`) or plain popularity file. */
  static load(path: string = DEFAULT_POPULARITY_PATH): PopularitySet {
    let raw: Buffer;
    try {
      raw = readFileSync(path);
    } catch (err) {
      throw new Error(`popularity: cannot read ${path}: ${(err as Error).message}`);
    }
    return PopularitySet.fromText((path.endsWith('.br') ? brotliDecompressSync(raw) : raw).toString('utf8'));
  }

  get size(): number {
    return this.tiers.size;
  }

  /** The tier of a registered domain (lower-case, no trailing dot), or undefined when it is in no ranking. */
  tier(registeredDomain: string): PopularityTier | undefined {
    return this.tiers.get(registeredDomain);
  }

  /** The registered domains of one tier. */
  domainsIn(tier: PopularityTier): string[] {
    const domains: string[] = [];
    for (const [domain, t] of this.tiers) if (t === tier) domains.push(domain);
    return domains;
  }

  count(tier: PopularityTier): number {
    let n = 0;
    for (const t of this.tiers.values()) if (t === tier) n++;
    return n;
  }
}

let defaultSet: PopularitySet | undefined;

/** The committed popularity set, loaded on first use. */
export function defaultPopularity(): PopularitySet {
  defaultSet ??= PopularitySet.load();
  return defaultSet;
}

/** Popularity tier of a registered domain in the committed rankings. */
export function popularity(registeredDomain: string): PopularityTier | undefined {
  if (typeof registeredDomain !== 'string') return undefined;
  return defaultPopularity().tier(registeredDomain.trim().toLowerCase().replace(/\.$/, ''));
}
