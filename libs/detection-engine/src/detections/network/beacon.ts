import type { KeyedState } from '../../state/state-budget';
import type { Wisdom } from '@vigil/contracts';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { FirstSightings } from '../../state/first-sightings';
import { LruMap } from '../../state/lru-map';
import type { SharedKeyTable } from '../../state/shared-keys';
import { SlotNumbers } from '../../state/slot-numbers';
import { readLru, writeLru, writeLruBySlot } from '../../state/lru-snapshot';
import { readArray, readCount, readDeltas, readNumber, readNumbers, readObject, fail, writeDeltas, writeNumber } from '../../state/snapshot';
import type { DetectionDefinition, DetectionHit, Detector, DetectorStateStats, ObservedEvent } from '../detection';
import { dataSizeScore, durationScore, histogramShape, timestampScore } from './beacon-score';
import { formatBytes, readFlow } from './flow';
import { CidrSet } from './ip-ranges';

export const BEACON_IP: DetectionDefinition = {
  id: 'beacon_ip',
  threat: 'beacon_ip',
  title: 'Beaconing to an Internet host',
  severity: 3,
  flags: ['beacon'],
  mitreAttack: ['TA0011:T1071'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Beaconing',
  keyDescription: 'destination IP',
};

/**
 * Per (host, Internet destination), the latest connections are scored in the manner of RITA v5 (see
 * beacon-score) and the pair is reported while the score is at least `minScore`. Streaming adaptation: the
 * observed period is the last 24 h, or less when the source host was first seen more recently; the
 * histogram spans that period, or only the remembered connections when older ones were dropped.
 * A jittered timer (interval +/- 30 %) with steady sizes scores about 0.9; browsing a site on and off
 * (Poisson-like arrivals, varied sizes) about 0.6. Private destinations and DNS/NTP (periodic by design)
 * are skipped, as are destinations in `allowDestinations`.
 */
export interface BeaconOptions {
  minScore: number;
  /** Connections (remembered) before a pair is scored. */
  minConnections: number;
  /** Time since the pair's first connection before it is scored. */
  minSpanMs: number;
  /** Connections remembered per pair (most recent). */
  maxConnectionsPerKey: number;
  /** A pair is re-scored at most this often (event time); hits in between reuse the verdict. */
  rescoreEveryMs: number;
  periodMs: number;
  maxKeys: number;
  maxEvidence: number;
  ignorePorts: readonly number[];
  /** CIDR blocks (or addresses) whose beacons are expected, e.g. the organisation's cloud monitoring. */
  allowDestinations: readonly string[];
  /** The engine's table of (host, destination) keys, shared by the per-pair detections; else a table of its own. */
  pairKeys?: SharedKeyTable;
}

export const DEFAULT_BEACON_OPTIONS: BeaconOptions = {
  minScore: 0.8,
  minConnections: 20,
  minSpanMs: 15 * 60_000,
  maxConnectionsPerKey: 128,
  rescoreEveryMs: 60_000,
  periodMs: 24 * 3_600_000,
  maxKeys: 20_000,
  maxEvidence: 10,
  ignorePorts: [53, 123],
  allowDestinations: [],
};

interface Verdict {
  score: number;
  parts: { timing: number; size: number; histogram: number; duration: number };
  medianIntervalS: number;
  madS: number;
  medianBytes: number;
  connections: number;
  spanMs: number;
}

interface PairState {
  firstSeenMs: number;
  /** Connections seen since first seen (the list below keeps the latest only). */
  total: number;
  /** Per connection its time (epoch seconds) and bytes, in arrival order: one list, as most pairs see few connections. */
  connections: number[];
  lastScoredMs: number;
  verdict: Verdict | undefined;
  unreported: number;
  /** Events that may become evidence; undefined until the pair nears minConnections (most pairs never do). */
  pending: ObservedEvent[] | undefined;
}

const HISTOGRAM_BINS = 24;

/** The numbers at `from`, `from + 2`, ... of a list of pairs (the times or the sizes of a pair's connections). */
function everyOther(list: readonly number[], from: number): number[] {
  const out: number[] = [];
  for (let i = from; i < list.length; i += 2) out.push(list[i]);
  return out;
}

/** First connections held per detector while pairs are being evicted (about 350 KB). */
const FIRST_SIGHTING_SLOTS = 16_384;
/** Numbers kept per pair that has had one connection: its time and size. */
const FIRST_CONNECTION_WIDTH = 2;

/**
 * A pair as its first connection left it: counted and unreported, and scored (a first connection is too few
 * for a verdict) at its time.
 */
function afterFirstConnection(timeMs: number, bytes: number): PairState {
  // Made with the first connection in place: most pairs see only a few, and a list grown by push from empty
  // would reserve room for 17.
  const connections = [Math.floor(timeMs / 1000), bytes];
  return { firstSeenMs: timeMs, total: 1, connections, lastScoredMs: timeMs, verdict: undefined, unreported: 1, pending: undefined };
}

export class BeaconDetector implements Detector {
  readonly definition = BEACON_IP;
  readonly types = ['ip'] as const;
  private readonly options: BeaconOptions;
  /**
   * Per (host, destination) its connections, or undefined while the pair has had one connection: that one's
   * time and size are then in {@link firstConnections}, by the pair's slot. Most pairs never see a second.
   */
  private readonly pairs: LruMap<string, PairState | undefined>;
  /** [timeMs, bytes] per slot of {@link pairs}, for pairs with one connection so far. */
  private readonly firstConnections: SlotNumbers;
  private readonly hostFirstSeen: LruMap<string, number>;
  private readonly ignorePorts: ReadonlySet<number>;
  private readonly allowed: CidrSet;
  /** First connections of pairs while the map is evicting; made when first needed. */
  private firstSightings?: FirstSightings;
  /** [timeMs, bytes] of a connection, reused for the first-sightings table. */
  private readonly sighting: number[] = [0, 0];
  /** A pair's first connection is never evidence (evidence starts at minConnections - maxEvidence + 1). */
  private readonly firstConnectionsHeld: boolean;

  constructor(options: Partial<BeaconOptions> = {}) {
    this.options = { ...DEFAULT_BEACON_OPTIONS, ...options };
    const { minScore, minConnections, maxConnectionsPerKey } = this.options;
    if (!(minScore > 0 && minScore <= 1)) throw new RangeError(`beacon_ip: minScore must be in (0, 1], got ${minScore}`);
    if (!Number.isInteger(minConnections) || minConnections < 5) throw new RangeError(`beacon_ip: minConnections must be an integer >= 5`);
    if (!Number.isInteger(maxConnectionsPerKey) || maxConnectionsPerKey < minConnections) {
      throw new RangeError('beacon_ip: maxConnectionsPerKey must be an integer >= minConnections');
    }
    if (!(this.options.periodMs > 0)) throw new RangeError('beacon_ip: periodMs must be positive');
    this.pairs = new LruMap(this.options.maxKeys, undefined, this.options.pairKeys?.member());
    this.firstConnections = new SlotNumbers(FIRST_CONNECTION_WIDTH, this.options.maxKeys + 1, 512);
    this.hostFirstSeen = new LruMap(this.options.maxKeys);
    this.ignorePorts = new Set(this.options.ignorePorts);
    this.allowed = new CidrSet(this.options.allowDestinations);
    this.firstConnectionsHeld = this.options.minConnections - this.options.maxEvidence >= 1;
    if (this.firstConnectionsHeld) this.pairs.extraBytesPerEntry = this.firstConnections.bytesPerSlot;
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined) return undefined;
    const hostKey = flow.hostKey;
    const hostFirst = this.hostFirstSeen.get(hostKey);
    if (hostFirst === undefined) this.hostFirstSeen.addNew(hostKey, observed.timeMs);
    else if (observed.timeMs < hostFirst) this.hostFirstSeen.set(hostKey, observed.timeMs);

    if (flow.destIP === undefined || !flow.destIsPublic) return undefined;
    if (flow.destPort !== undefined && this.ignorePorts.has(flow.destPort)) return undefined;
    if (this.allowed.size > 0 && this.allowed.containsAddress(flow.destIP) === true) return undefined;

    const key = flow.pairKey;
    const bytes = (flow.bytesOut ?? 0) + (flow.bytesIn ?? 0);
    const slot = this.pairs.slotOf(key);
    let pair: PairState | undefined;
    if (slot < 0) {
      pair = this.newPair(key, observed.timeMs, bytes);
      if (pair === undefined) return undefined;
    } else {
      pair = this.pairs.valueAt(slot) ?? this.secondConnection(slot);
      this.addConnection(pair, observed.timeMs, bytes);
    }
    pair.unreported++;
    // A pair reports once it has minConnections, with its latest maxEvidence events: earlier ones can never be
    // evidence, so most pairs (a few connections each) keep no events at all.
    if (pair.total > this.options.minConnections - this.options.maxEvidence) {
      const pending = (pair.pending ??= []);
      pending.push(observed);
      if (pending.length > this.options.maxEvidence) pending.shift();
    }

    if (observed.timeMs - pair.lastScoredMs >= this.options.rescoreEveryMs) {
      pair.lastScoredMs = observed.timeMs;
      pair.verdict = this.score(pair, this.hostFirstSeen.peek(hostKey) ?? pair.firstSeenMs, observed.timeMs);
    }
    const verdict = pair.verdict;
    if (verdict === undefined || verdict.score < this.options.minScore) return undefined;
    return this.hit(pair, verdict, flow.destIP);
  }

  /**
   * Records the first connection of a pair not in the map. Returns the pair for the caller to go on with, or
   * undefined when there is nothing more to do: the connection is kept by the pair's slot (the pair is in the
   * map without an object), or, while the map is evicting, held in the first-sightings table. When the table
   * held the pair's first connection already, the pair starts from that one, with this one added.
   */
  private newPair(key: string, timeMs: number, bytes: number): PairState | undefined {
    if (!this.firstConnectionsHeld) {
      // The first connection can be evidence: the pair is kept whole from it.
      const pair: PairState = { firstSeenMs: timeMs, total: 1, connections: [Math.floor(timeMs / 1000), bytes], lastScoredMs: -Infinity, verdict: undefined, unreported: 0, pending: undefined };
      this.pairs.addNew(key, pair);
      return pair;
    }
    if (this.pairs.evicting) {
      const sightings = (this.firstSightings ??= new FirstSightings(FIRST_SIGHTING_SLOTS, 2));
      const first = this.sighting;
      first[0] = timeMs;
      first[1] = bytes;
      if (!sightings.recallOrHold(key, first)) return undefined;
      const pair = afterFirstConnection(first[0], first[1]);
      this.addConnection(pair, timeMs, bytes);
      this.pairs.addNew(key, pair);
      return pair;
    }
    const slot = this.pairs.addNew(key, undefined);
    const at = this.firstConnections.reserve(slot);
    this.firstConnections.values[at] = timeMs;
    this.firstConnections.values[at + 1] = bytes;
    return undefined;
  }

  /** The state of a pair in a slot that has had one connection, kept from now on. */
  private secondConnection(slot: number): PairState {
    const pair = this.pairAt(slot);
    this.pairs.setValueAt(slot, pair);
    return pair;
  }

  /** The pair in a slot, made up from its first connection when it has had only that one (not kept). */
  private pairAt(slot: number): PairState {
    const pair = this.pairs.valueAt(slot);
    if (pair !== undefined) return pair;
    const at = this.firstConnections.offsetOf(slot);
    return afterFirstConnection(this.firstConnections.values[at], this.firstConnections.values[at + 1]);
  }

  private addConnection(pair: PairState, timeMs: number, bytes: number): void {
    pair.firstSeenMs = Math.min(pair.firstSeenMs, timeMs);
    pair.total++;
    const connections = pair.connections;
    connections.push(Math.floor(timeMs / 1000), bytes);
    if (connections.length > 2 * this.options.maxConnectionsPerKey) {
      connections.shift();
      connections.shift();
    }
  }

  keyedState(): readonly KeyedState[] {
    return [this.pairs, this.hostFirstSeen];
  }

  stateStats(): DetectorStateStats {
    let largestKey = 0;
    for (const pair of this.pairs.values()) largestKey = Math.max(largestKey, pair === undefined ? 1 : pair.connections.length / 2);
    return { keys: this.pairs.size, maxKeys: this.pairs.maxSize, largestKey, maxEntriesPerKey: this.options.maxConnectionsPerKey };
  }

  /** `p`: per pair [firstSeenMs, total, timesS (deltas), bytes, lastScoredMs, verdict or 0, unreported, events]; `h`: host first sightings. */
  snapshot(events: SnapshotEventWriter): unknown {
    return {
      p: writeLruBySlot(this.pairs, (slot) => {
        const pair = this.pairAt(slot);
        return [
          writeNumber(pair.firstSeenMs),
          pair.total,
          writeDeltas(everyOther(pair.connections, 0)),
          everyOther(pair.connections, 1).map(writeNumber),
          writeNumber(pair.lastScoredMs),
          pair.verdict === undefined ? 0 : writeVerdict(pair.verdict),
          pair.unreported,
          (pair.pending ?? []).map((e) => events.observed(e)),
        ];
      }, events),
      h: writeLru(this.hostFirstSeen, writeNumber, events),
    };
  }

  /** Snapshots leave the first-sightings table out: a restored pair seen once before starts again. */
  restore(state: unknown, events: SnapshotEventReader): void {
    this.firstSightings?.clear();
    const what = BEACON_IP.id;
    const parts = state === undefined ? {} : readObject(state, what);
    const max = this.options.maxConnectionsPerKey;
    const pairs = new LruMap<string, PairState>(this.pairs.maxSize);
    readLru(
      pairs,
      parts.p,
      (value, at) => {
        const t = readArray(value, at);
        const verdict = t[5] === 0 ? undefined : readVerdict(t[5], `${at}.verdict`);
        const timesS = readDeltas(t[2], `${at}.timesS`).slice(-max);
        const bytes = readNumbers(t[3], `${at}.bytes`).slice(-max);
        if (timesS.length !== bytes.length) fail(`${at}.bytes`, `${timesS.length} sizes`, bytes.length);
        const pair: PairState = {
          firstSeenMs: readNumber(t[0], `${at}.firstSeenMs`),
          total: readCount(t[1], `${at}.total`),
          connections: timesS.flatMap((time, i) => [time, bytes[i]]),
          lastScoredMs: readNumber(t[4], `${at}.lastScoredMs`),
          verdict,
          unreported: readCount(t[6], `${at}.unreported`),
          pending: readArray(t[7], `${at}.pending`)
            .slice(-this.options.maxEvidence)
            .map((ref) => events.observed(ref, `${at}.pending`)),
        };
        return pair;
      },
      `${what}.p`,
      events,
    );
    readLru(this.hostFirstSeen, parts.h, (value, at) => readNumber(value, at), `${what}.h`, events);
    readLru(this.pairs, [...pairs.items()].flat(), (value) => value as PairState, `${what}.p`);
  }

  private score(pair: PairState, hostFirstMs: number, nowMs: number): Verdict | undefined {
    const spanMs = nowMs - pair.firstSeenMs;
    if (pair.connections.length / 2 < this.options.minConnections || spanMs < this.options.minSpanMs) return undefined;
    const times = everyOther(pair.connections, 0).sort((a, b) => a - b);
    const timing = timestampScore(times);
    const size = dataSizeScore(everyOther(pair.connections, 1));
    if (timing === undefined || size === undefined) return undefined;

    const periodStartMs = Math.max(nowMs - this.options.periodMs, hostFirstMs);
    const truncated = pair.firstSeenMs < times[0] * 1000;
    const histStartS = truncated ? times[0] : Math.floor(periodStartMs / 1000);
    const histEndS = Math.max(times[times.length - 1], Math.floor(nowMs / 1000));
    const binS = Math.max(1, (histEndS - histStartS) / HISTOGRAM_BINS);
    const counts = Array<number>(HISTOGRAM_BINS).fill(0);
    for (const t of times) counts[Math.min(HISTOGRAM_BINS - 1, Math.max(0, Math.floor((t - histStartS) / binS)))]++;
    const shape = histogramShape(counts);
    const pairSpanS = (nowMs - Math.max(pair.firstSeenMs, periodStartMs)) / 1000;
    const duration = durationScore(pairSpanS, (nowMs - periodStartMs) / 1000, shape);

    const parts = { timing: timing.score, size: size.score, histogram: shape.score, duration };
    const score = Math.round(((parts.timing + parts.size + parts.histogram + parts.duration) / 4) * 1000) / 1000;
    return { score, parts, medianIntervalS: timing.medianIntervalS, madS: timing.madS, medianBytes: size.medianBytes, connections: pair.total, spanMs };
  }

  /** Reports the connections since the last hit; the pending list ends with the triggering event. */
  private hit(pair: PairState, verdict: Verdict, destIP: string): DetectionHit {
    const weight = Math.max(1, pair.unreported);
    const evidenceEvents = [...(pair.pending ?? [])];
    pair.unreported = 0;
    pair.pending = undefined;
    const wisdom: Wisdom = { flags: [...BEACON_IP.flags] };
    const p = verdict.parts;
    const f = (v: number) => v.toFixed(2);
    const minutes = Math.round(verdict.spanMs / 60_000);
    return {
      detection: BEACON_IP,
      key: destIP,
      weight,
      evidence: evidenceEvents.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [
        `beacon score ${f(verdict.score)}`,
        `median interval ${Math.round(verdict.medianIntervalS)} s (MAD ${Math.round(verdict.madS)} s)`,
        `median size ${formatBytes(verdict.medianBytes)}`,
      ],
      desc:
        `${verdict.connections} connections to ${destIP} over ${minutes} min at a median interval of ${Math.round(verdict.medianIntervalS)} s ` +
        `(MAD ${Math.round(verdict.madS)} s), median size ${formatBytes(verdict.medianBytes)}: beacon score ${f(verdict.score)} ` +
        `(timing ${f(p.timing)}, size ${f(p.size)}, histogram ${f(p.histogram)}, duration ${f(p.duration)}; threshold ${f(this.options.minScore)})`,
    };
  }
}

const VERDICT_FIELDS = 10;

function writeVerdict(v: Verdict): (number | string)[] {
  const { parts: p } = v;
  return [v.score, p.timing, p.size, p.histogram, p.duration, v.medianIntervalS, v.madS, v.medianBytes, v.connections, v.spanMs].map(writeNumber);
}

function readVerdict(value: unknown, what: string): Verdict {
  const n = readNumbers(value, what);
  if (n.length !== VERDICT_FIELDS) fail(what, `${VERDICT_FIELDS} numbers`, value);
  const [score, timing, size, histogram, duration, medianIntervalS, madS, medianBytes, connections, spanMs] = n;
  return { score, parts: { timing, size, histogram, duration }, medianIntervalS, madS, medianBytes, connections, spanMs };
}
