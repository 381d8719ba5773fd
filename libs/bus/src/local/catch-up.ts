/**
 * Tracks `Subscription.caughtUp`: resolves once, for every partition, the subscriber's position has reached the
 * end offset the partition had when subscribe() was called. Rejects if the subscription closes first (a no-op
 * catch is attached so an un-awaited rejection does not crash the process).
 */
export class CatchUpTracker {
  readonly promise: Promise<void>;
  private settled = false;
  private resolve!: () => void;
  private reject!: (error: Error) => void;

  constructor(
    private readonly targets: ReadonlyMap<number, number>,
    private readonly positionOf: (partition: number) => number,
  ) {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.promise.catch(() => undefined);
  }

  /** Re-evaluates positions; call after progress. */
  check(): void {
    if (this.settled) return;
    for (const [partition, target] of this.targets) {
      if (this.positionOf(partition) < target) return;
    }
    this.settled = true;
    this.resolve();
  }

  abandon(reason: string): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(new Error(reason));
  }
}
