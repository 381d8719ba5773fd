import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SplitHostname } from '../domain';
import type { IndicatorMatch } from './indicator';
import type { IndicatorCounts } from './indicator-index';
import { IndicatorIndex, IndicatorIndexBuilder } from './indicator-index';
import type { ListFormat, ListParseOptions } from './list-formats';
import type { PackedIndicators } from './packed-indicators';
import { LIST_FORMATS, ListFormatError, parseList } from './list-formats';

/** The seed committed with the repository (built by `tools/intel/build-seed.ts`). */
export const DEFAULT_SEED_PATH = path.resolve(__dirname, '../../data/intel/seed.vigil.gz');

export const DEFAULT_MAX_INDICATORS = 4_000_000;
export const DEFAULT_MAX_LIST_BYTES = 64 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/** A seed already indexed by another store of the process (see {@link IndicatorStore.sharedSeed}). */
export interface SharedSeed {
  indicators: PackedIndicators;
  summary: ListSummary;
}

export interface IndicatorStoreOptions {
  /**
   * Seed file (`vigil` format, gzip or plain), a seed shared by another store of the process, or `false` for an
   * empty store. Default {@link DEFAULT_SEED_PATH}.
   */
  seed?: string | false | SharedSeed;
  /** Bound on indexed indicators across seed and lists; a load that would exceed it fails and changes nothing. */
  maxIndicators?: number;
  /** Bound on one list's (decompressed) size in bytes. */
  maxListBytes?: number;
}

/** How to read a list added at run time. */
export interface LoadListOptions extends Partial<Omit<ListParseOptions, 'source'>> {
  /** Name under which the list is kept and refreshed; default: the source. Loading the same name replaces it. */
  name?: string;
}

export interface ListSummary {
  name: string;
  source: string;
  format: ListFormat;
  /** Lines that yielded no indicator (bad kind, unparseable value). */
  skipped: number;
  loadedAt: number;
  /** The last refresh error of this list (its previous content stays in force). */
  error?: string;
}

export interface RefreshReport {
  lists: ListSummary[];
  indicators: number;
}

interface ListLayer {
  summary: ListSummary;
  options: LoadListOptions;
  text: string;
}

const SEED_NAME = 'seed';
const NONE: readonly IndicatorMatch[] = Object.freeze([]);

/** How narrowly a match names the target: exact values first, then longer zones and narrower networks. */
function specificity(match: IndicatorMatch): number {
  if (match.kind === 'domain') return match.indicator.length;
  if (match.kind === 'cidr') return Number(match.indicator.slice(match.indicator.lastIndexOf('/') + 1));
  return 1_000;
}

/** Seed and run-time matches, most specific first as each index orders its own; no copy when one side is empty. */
function both(seed: readonly IndicatorMatch[], lists: readonly IndicatorMatch[]): readonly IndicatorMatch[] {
  if (lists.length === 0) return seed;
  if (seed.length === 0) return lists;
  return [...seed, ...lists].sort((a, b) => specificity(b) - specificity(a));
}

/**
 * Threat-intelligence indicators: the committed seed plus lists loaded at run time from files or URLs.
 * Lookups read one immutable {@link IndicatorIndex}; loads and refreshes build a new one off to the side and
 * swap it in with a single assignment, so events are never matched against a half-loaded set.
 */
export class IndicatorStore {
  /**
   * The seed is indexed once, at construction, and never rebuilt: run-time lists live in their own index
   * (`lists`), so a refresh re-reads only them and the seed's text is not kept in memory.
   */
  private readonly seed: IndicatorIndex = IndicatorIndex.empty();
  private index: IndicatorIndex = IndicatorIndex.empty();
  private indexGeneration = 0;
  private readonly layers = new Map<string, ListLayer>();
  private readonly maxIndicators: number;
  private readonly maxListBytes: number;
  /** Loads and refreshes run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: IndicatorStoreOptions = {}) {
    this.maxIndicators = options.maxIndicators ?? DEFAULT_MAX_INDICATORS;
    this.maxListBytes = options.maxListBytes ?? DEFAULT_MAX_LIST_BYTES;
    const seed = options.seed ?? DEFAULT_SEED_PATH;
    if (typeof seed === 'string') {
      if (!existsSync(seed)) throw new Error(`intel seed not found at ${seed} (run tools/intel/build-seed.ts)`);
      const builder = new IndicatorIndexBuilder(this.maxIndicators);
      // One pass: a malformed seed throws from the parser, so no separate validation parse.
      parseList(this.decode(readFileSync(seed), seed), 'vigil', { source: seed }, (record) => builder.add(record));
      // Packed: about a third of the Maps' heap, and shareable with the scoring threads without a copy.
      this.shared = {
        indicators: builder.build().pack(),
        summary: { name: SEED_NAME, source: seed, format: 'vigil', skipped: builder.invalidCount, loadedAt: Date.now() },
      };
    } else if (seed !== false) {
      this.shared = seed;
    }
    if (this.shared !== undefined) this.seed = IndicatorIndex.fromPacked(this.shared.indicators);
  }

  private readonly shared: SharedSeed | undefined;

  /** The indexed seed, to give other threads' stores (its table is shared memory, so posting it does not copy it). */
  get sharedSeed(): SharedSeed | undefined {
    return this.shared;
  }

  /**
   * Changes with every load, unload and refresh of the run-time lists: callers that remember answers derived
   * from matches (per host name, say) drop them when it moves.
   */
  get generation(): number {
    return this.indexGeneration;
  }

  private swapIndex(next: IndicatorIndex): void {
    this.index = next;
    this.indexGeneration++;
  }

  /** Indicators held: the seed plus every run-time list. */
  get size(): number {
    return this.seed.size + this.index.size;
  }

  get counts(): Readonly<IndicatorCounts> {
    const total = { ...this.seed.counts };
    for (const [kind, count] of Object.entries(this.index.counts)) total[kind as keyof IndicatorCounts] += count;
    return total;
  }

  lists(): ListSummary[] {
    const lists = [...this.layers.values()].map((layer) => ({ ...layer.summary }));
    return this.shared === undefined ? lists : [{ ...this.shared.summary }, ...lists];
  }

  matchDomain(hostname: string): readonly IndicatorMatch[] {
    return both(this.seed.matchDomain(hostname), this.index.size === 0 ? NONE : this.index.matchDomain(hostname));
  }

  /**
   * {@link matchDomain} of a split name, kept with the split (SplitHostname.memo) for this store and generation of
   * its lists: a name's later events, while the split memo holds it, are answered without the zones' filter.
   */
  matchSplitDomain(split: Readonly<SplitHostname>): readonly IndicatorMatch[] {
    const memo = split.memo;
    if (memo.intelStore !== this || memo.intelGeneration !== this.indexGeneration) {
      memo.intelMatches = this.matchDomain(split.hostname);
      memo.intelStore = this;
      memo.intelGeneration = this.indexGeneration;
    }
    return memo.intelMatches;
  }

  /** {@link matchDomain} of a host name, through {@link matchSplitDomain} when `split` is the name's own split. */
  matchNamedDomain(hostname: string, split: Readonly<SplitHostname> | undefined): readonly IndicatorMatch[] {
    return split !== undefined && split.hostname === hostname ? this.matchSplitDomain(split) : this.matchDomain(hostname);
  }

  matchIp(address: string): readonly IndicatorMatch[] {
    return both(this.seed.matchIp(address), this.index.size === 0 ? NONE : this.index.matchIp(address));
  }

  matchIpPort(address: string, port: number): readonly IndicatorMatch[] {
    return both(this.seed.matchIpPort(address, port), this.index.size === 0 ? NONE : this.index.matchIpPort(address, port));
  }

  matchUrl(url: string): readonly IndicatorMatch[] {
    return both(this.seed.matchUrl(url), this.index.size === 0 ? NONE : this.index.matchUrl(url));
  }

  matchJa3(hash: string): readonly IndicatorMatch[] {
    return both(this.seed.matchJa3(hash), this.index.size === 0 ? NONE : this.index.matchJa3(hash));
  }

  matchJa3s(hash: string): readonly IndicatorMatch[] {
    return both(this.seed.matchJa3s(hash), this.index.size === 0 ? NONE : this.index.matchJa3s(hash));
  }

  matchCert(hash: string): readonly IndicatorMatch[] {
    return both(this.seed.matchCert(hash), this.index.size === 0 ? NONE : this.index.matchCert(hash));
  }

  /**
   * Adds (or replaces, by name) a list read from a file path or an `http(s)://` URL, gzip or plain.
   * Fails without changing anything when the source cannot be read, is malformed or would exceed the bounds.
   */
  loadList(source: string, format: ListFormat, options: LoadListOptions = {}): Promise<ListSummary> {
    return this.serialise(async () => {
      if (!(LIST_FORMATS as readonly string[]).includes(format)) {
        throw new ListFormatError(`unknown intel list format "${String(format)}" (expected ${LIST_FORMATS.join(', ')})`);
      }
      const name = options.name ?? source;
      if (name === SEED_NAME) throw new Error(`"${SEED_NAME}" is reserved for the built-in seed`);
      const text = await this.read(source);
      const layer = this.parseLayer(name, source, format, options, text);
      const next = new Map(this.layers);
      next.set(name, layer);
      this.swapIndex(this.buildIndex(next));
      this.layers.set(name, layer);
      return { ...layer.summary };
    });
  }

  /** Drops a run-time list; returns whether it was loaded. */
  unloadList(name: string): Promise<boolean> {
    return this.serialise(async () => {
      if (!this.layers.has(name)) return false;
      const next = new Map(this.layers);
      next.delete(name);
      this.swapIndex(this.buildIndex(next));
      this.layers.delete(name);
      return true;
    });
  }

  /**
   * Re-reads every run-time list and swaps in the result. A list whose source fails keeps its previous
   * content and reports the error in its summary; the rest are updated.
   */
  refresh(): Promise<RefreshReport> {
    return this.serialise(async () => {
      const next = new Map<string, ListLayer>();
      for (const [name, layer] of this.layers) {
        try {
          const text = await this.read(layer.summary.source);
          next.set(name, this.parseLayer(name, layer.summary.source, layer.summary.format, layer.options, text));
        } catch (error) {
          next.set(name, { ...layer, summary: { ...layer.summary, error: (error as Error).message } });
        }
      }
      this.swapIndex(this.buildIndex(next));
      this.layers.clear();
      for (const [name, layer] of next) this.layers.set(name, layer);
      return { lists: this.lists(), indicators: this.size };
    });
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private parseLayer(name: string, source: string, format: ListFormat, options: LoadListOptions, text: string): ListLayer {
    // Parse once here so that a malformed list is rejected before any index is rebuilt.
    const skipped = parseList(text, format, { ...options, source }, () => undefined);
    return { summary: { name, source, format, skipped, loadedAt: Date.now() }, options, text };
  }

  private buildIndex(layers: ReadonlyMap<string, ListLayer>): IndicatorIndex {
    const builder = new IndicatorIndexBuilder(this.maxIndicators - this.seed.size);
    for (const layer of layers.values()) {
      const { source, format } = layer.summary;
      parseList(layer.text, format, { ...layer.options, source }, (record) => builder.add(record));
    }
    return builder.build();
  }

  private async read(source: string): Promise<string> {
    if (/^https?:\/\//i.test(source)) {
      const response = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`intel list ${source}: HTTP ${response.status}`);
      const length = Number(response.headers.get('content-length') ?? 0);
      if (length > this.maxListBytes) throw new Error(`intel list ${source} is larger than ${this.maxListBytes} bytes`);
      return this.decode(Buffer.from(await response.arrayBuffer()), source);
    }
    return this.decode(await readFile(source), source);
  }

  private decode(bytes: Buffer, source: string): string {
    const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
    if (!gzipped && bytes.length > this.maxListBytes) {
      throw new Error(`intel list ${source} is larger than ${this.maxListBytes} bytes`);
    }
    try {
      return (gzipped ? gunzipSync(bytes, { maxOutputLength: this.maxListBytes }) : bytes).toString('utf8');
    } catch (error) {
      throw new Error(`intel list ${source}: cannot decompress (${(error as Error).message})`);
    }
  }
}
