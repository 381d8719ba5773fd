/**
 * Admission control for telemetry when the gateway and the scoring engine share a process (the all-in-one).
 * The bus can hold far more than scoring keeps up with, and every event accepted behind a long backlog delays
 * the findings of everything after it. So a new body is let in only while the events accepted but not yet
 * scored would take scoring at most `maxDelayMs` at its recent rate.
 *
 * A body that finds scoring behind waits first (before its body is read), in arrival order, for up to
 * `admissionWaitMs`, and is let in as soon as scoring has made room: senders back off 30–60 s after a 429, and
 * scoring would run dry meanwhile. Only a body still waiting when that time is up, or one that finds the queue
 * full, is refused (429 with Retry-After); senders keep the batch and retry, and nothing accepted is lost.
 *
 * Split deployments do not arm it: a gateway there cannot see the scoring engines' progress, and Kafka's
 * producer bound is the backpressure instead.
 */

export interface BacklogOptions {
  /** Largest backlog allowed, in milliseconds of scoring at the recent rate; 0 disables admission control. */
  maxDelayMs: number;
  /** Backlog always admitted (events), so one full body fits even before a rate is known. */
  floorEvents?: number;
  /** How long a body over the limit may wait for room before it is refused; 0 refuses it at once. */
  admissionWaitMs?: number;
  /** Most bodies waiting at once; one more is refused at once. */
  maxWaiting?: number;
}

const RATE_WINDOW_MS = 1000;
const DEFAULT_FLOOR_EVENTS = 10_000;
const DEFAULT_MAX_WAITING = 256;
/**
 * A body let in from the queue is read, prepared and published before the backlog shows it; the next one waits
 * for that (published() or its answer, settled(), ends the hand-over), so two waiting bodies do not both slip in
 * on the same room. A body that is never answered holds the queue no longer than this.
 */
const HANDOVER_TIMEOUT_MS = 2_000;

interface Waiter {
  admit: (admitted: boolean) => void;
  timer: NodeJS.Timeout;
  /** The sender hung up while waiting: skipped rather than given the room. */
  gone: () => boolean;
}

export class ScoringBacklog {
  private publishedEvents = 0;
  private scoredEvents = 0;
  private maxDelayMs = 0;
  private floorEvents = DEFAULT_FLOOR_EVENTS;
  private admissionWaitMs = 0;
  private maxWaiting = DEFAULT_MAX_WAITING;
  /** Scored events per millisecond, smoothed over the last few windows. */
  private ratePerMs = 0;
  private windowStartedAt = 0;
  private windowScored = 0;
  private shed = 0;
  private waited = 0;
  private readonly waiting: Waiter[] = [];
  private handover?: NodeJS.Timeout;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Called by the scoring engine of this process once it runs. */
  arm(options: BacklogOptions): void {
    this.maxDelayMs = options.maxDelayMs;
    this.floorEvents = options.floorEvents ?? DEFAULT_FLOOR_EVENTS;
    this.admissionWaitMs = options.admissionWaitMs ?? 0;
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
    this.windowStartedAt = this.clock();
  }

  published(events: number): void {
    this.publishedEvents += events;
    this.endHandover();
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
    this.letNextIn();
  }

  /** Events published by this process and not yet scored (0 when scoring runs ahead, e.g. after a restart). */
  get backlogEvents(): number {
    return Math.max(0, this.publishedEvents - this.scoredEvents);
  }

  /** Bodies refused so far. */
  get shedCount(): number {
    return this.shed;
  }

  /** Bodies let in after waiting for room, so far. */
  get waitedCount(): number {
    return this.waited;
  }

  /** Bodies waiting for room now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** The backlog scoring may carry before new bodies wait or are refused. */
  get limitEvents(): number {
    return Math.max(this.floorEvents, this.ratePerMs * this.maxDelayMs);
  }

  /**
   * Whether a new body may be read now (true), after waiting for room (a promise of true), or not at all
   * (false, or a promise of false once its wait is up): the caller then refuses it with 429. `gone` tells
   * whether the sender has hung up meanwhile.
   */
  admit(gone: () => boolean = () => false): boolean | Promise<boolean> {
    if (this.waiting.length === 0 && this.hasRoom()) return true;
    if (this.admissionWaitMs <= 0 || this.waiting.length >= this.maxWaiting) {
      this.shed += 1;
      return false;
    }
    return new Promise<boolean>((admit) => {
      const waiter: Waiter = {
        admit,
        gone,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          this.shed += 1;
          admit(false);
        }, this.admissionWaitMs).unref(),
      };
      this.waiting.push(waiter);
    });
  }

  /** Scoring is stopping: bodies waiting are refused now, and later ones that find scoring behind at once. */
  stopWaiting(): void {
    this.admissionWaitMs = 0;
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      this.shed += 1;
      waiter.admit(false);
    }
  }

  /** The body let in last was answered (accepted or not): the next may go, published or not. */
  settled(): void {
    this.endHandover();
  }

  private hasRoom(): boolean {
    return this.maxDelayMs <= 0 || this.backlogEvents <= this.limitEvents;
  }

  private letNextIn(): void {
    if (this.handover !== undefined || !this.hasRoom()) return;
    let waiter = this.waiting.shift();
    while (waiter !== undefined && waiter.gone()) {
      clearTimeout(waiter.timer);
      waiter.admit(false);
      waiter = this.waiting.shift();
    }
    if (waiter === undefined) return;
    clearTimeout(waiter.timer);
    this.waited += 1;
    this.handover = setTimeout(() => this.endHandover(), HANDOVER_TIMEOUT_MS).unref();
    waiter.admit(true);
  }

  private endHandover(): void {
    if (this.handover === undefined) return;
    clearTimeout(this.handover);
    this.handover = undefined;
    this.letNextIn();
  }
}

/** The process's one backlog: the gateway's intake publishes into it, the scoring consumer drains it. */
export const scoringBacklog = new ScoringBacklog();
