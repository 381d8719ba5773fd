/** The two kinds of Subscription a LocalBus hands out: a consumer-group member, and a broadcast reader. */
import type { BatchHandler, Subscription } from '../bus';
import { CatchUpTracker } from './catch-up';
import type { ConsumerSettings } from './consumer-settings';
import type { GroupConsumers, GroupMember } from './group-consumers';
import { PartitionConsumer } from './partition-consumer';
import type { PartitionLog } from './partition-log';

const CLOSED_EARLY = 'the subscription was closed before it caught up';

/** End offset of every partition now: what `caughtUp` waits for. */
export function currentEnds(logs: readonly PartitionLog[]): Map<number, number> {
  return new Map(logs.map((log) => [log.partition, log.end]));
}

export class GroupSubscription implements Subscription {
  private readonly tracker: CatchUpTracker;
  private readonly member: GroupMember;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly consumers: GroupConsumers,
    handler: BatchHandler,
    fromBeginning: boolean,
    manualCommit: boolean,
    targets: ReadonlyMap<number, number>,
    private readonly onClosed: (subscription: GroupSubscription) => void,
  ) {
    this.tracker = new CatchUpTracker(targets, (partition) => consumers.positionOf(partition));
    this.member = { handler, fromBeginning, manualCommit, onGroupProgress: () => this.tracker.check() };
  }

  async commit(partition: number, nextOffset: string): Promise<boolean> {
    if (!this.member.manualCommit) throw new Error(`group ${this.consumers.group}: commit() is only for subscriptions with commit: 'manual'`);
    if (this.closing) return false;
    return this.consumers.commit(this.member, partition, parseOffset(nextOffset));
  }

  /** Joins the group: partitions are (re)assigned and this member's consumers start. */
  join(): Promise<void> {
    return this.consumers.join(this.member);
  }

  get caughtUp(): Promise<void> {
    return this.tracker.promise;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.consumers.leave(this.member);
      this.tracker.abandon(CLOSED_EARLY);
      this.onClosed(this);
    })();
    return this.closing;
  }
}

export class BroadcastSubscription implements Subscription {
  private readonly tracker: CatchUpTracker;
  private readonly consumers: PartitionConsumer[];
  private closing: Promise<void> | null = null;

  constructor(
    logs: readonly PartitionLog[],
    handler: BatchHandler,
    settings: ConsumerSettings,
    targets: ReadonlyMap<number, number>,
    private readonly onClosed: (subscription: BroadcastSubscription) => void,
  ) {
    const positions = new Map<number, number>();
    this.tracker = new CatchUpTracker(targets, (partition) => positions.get(partition) ?? 0);
    this.consumers = logs.map((log) => {
      positions.set(log.partition, log.startOffset);
      return new PartitionConsumer({
        log,
        handler,
        startOffset: log.startOffset,
        limits: settings.limits,
        retry: settings.retry,
        logger: settings.logger,
        label: 'broadcast reader',
        onHandled: (next) => {
          positions.set(log.partition, next);
          this.tracker.check();
        },
      });
    });
    this.tracker.check();
  }

  get caughtUp(): Promise<void> {
    return this.tracker.promise;
  }

  commit(): Promise<boolean> {
    return Promise.reject(new Error('commit() is only for group subscriptions with commit: \'manual\''));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all(this.consumers.map((consumer) => consumer.stop()));
      this.tracker.abandon(CLOSED_EARLY);
      this.onClosed(this);
    })();
    return this.closing;
  }
}

function parseOffset(offset: string): number {
  if (typeof offset !== 'string' || !/^\d{1,16}$/.test(offset)) throw new TypeError(`commit(): offset must be a decimal string, got ${JSON.stringify(offset)}`);
  return Number(offset);
}
