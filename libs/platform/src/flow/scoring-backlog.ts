/**
 * Admission control for telemetry when the gateway and the scoring engine share a process (the all-in-one).
 * The bus can hold far more than scoring keeps up with, and every event accepted behind a long backlog delays
 * the findings of everything after it. So the gateway refuses new bodies (429 with Retry-After, before their
 * body is read) while the events accepted but not yet scored would take scoring longer than `maxDelayMs` at its
 * recent rate. Senders keep the batch and retry; nothing accepted is lost.
 *
 * Split deployments do not arm it: a gateway there cannot see the scoring engines' progress, and Kafka's
 * producer bound is the backpressure instead.
 */

export interface BacklogOptions {
  /** Largest backlog allowed, in milliseconds of scoring at the recent rate; 0 disables admission control. */
  maxDelayMs: number;
  /** Backlog always admitted (events), so one full body fits even before a rate is known. */
  floorEvents?: number;
}

const RATE_WINDOW_MS = 1000;
const DEFAULT_FLOOR_EVENTS = 10_000;

export class ScoringBacklog {
  private publishedEvents = 0;
  private scoredEvents = 0;
  private maxDelayMs = 0;
  private floorEvents = DEFAULT_FLOOR_EVENTS;
  /** Scored events per millisecond, smoothed over the last few windows. */
  private ratePerMs = 0;
  private windowStartedAt = 0;
  private windowScored = 0;
  private shed = 0;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Called by the scoring engine of this process once it runs. */
  arm(options: BacklogOptions): void {
    this.maxDelayMs = options.maxDelayMs;
    this.floorEvents = options.floorEvents ?? DEFAULT_FLOOR_EVENTS;
    this.windowStartedAt = this.clock();
  }

  published(events: number): void {
    this.publishedEvents += events;
  }

  scored(events: number): void {
    this.scoredEvents += events;
    this.windowScored += events;
    const now = this.clock();
    const elapsed = now - this.windowStartedAt;
    if (elapsed >= RATE_WINDOW_MS) {
      const current = this.windowScored / elapsed;
      this.ratePerMs = this.ratePerMs === 0 ? current : 0.5 * this.ratePerMs + 0.5 * current;
      this.windowStartedAt = now;
      this.windowScored = 0;
    }
  }

  /** Events published by this process and not yet scored (0 when scoring runs ahead, e.g. after a restart). */
  get backlogEvents(): number {
    return Math.max(0, this.publishedEvents - this.scoredEvents);
  }

  /** Bodies refused so far. */
  get shedCount(): number {
    return this.shed;
  }

  /** The backlog scoring may carry before new bodies are refused. */
  get limitEvents(): number {
    return Math.max(this.floorEvents, this.ratePerMs * this.maxDelayMs);
  }

  /** Whether a new body may be accepted now. */
  admit(): boolean {
    if (this.maxDelayMs <= 0 || this.backlogEvents <= this.limitEvents) return true;
    this.shed += 1;
    return false;
  }
}

/** The process's one backlog: the gateway's intake publishes into it, the scoring consumer drains it. */
export const scoringBacklog = new ScoringBacklog();
