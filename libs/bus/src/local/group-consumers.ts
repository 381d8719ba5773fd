/**
 * The members of one consumer group on one topic, inside this process. Partitions are split round-robin by
 * join order (partition p → member p % n); when a member joins or leaves, partitions that change hands are
 * stopped first (their in-flight handler finishes and commits) and then restarted on the new owner from the
 * committed offset, so a partition is never consumed by two members at once. Manual-commit members commit
 * through {@link GroupConsumers.commit}, accepted only for partitions they own.
 */
import type { BatchHandler } from '../bus';
import type { ConsumerSettings } from './consumer-settings';
import type { GroupOffsets } from './group-offsets';
import { PartitionConsumer } from './partition-consumer';
import type { PartitionLog } from './partition-log';

export interface GroupMember {
  handler: BatchHandler;
  fromBeginning: boolean;
  /** The member commits itself (see SubscribeOptions.commit); handled batches are not committed. */
  manualCommit: boolean;
  /** Called whenever the group commits, so the member can re-check its catch-up target. */
  onGroupProgress: () => void;
}

interface Assignment {
  member: GroupMember;
  consumer: PartitionConsumer;
}

export class GroupConsumers {
  private readonly members: GroupMember[] = [];
  private readonly assignments = new Map<number, Assignment>();
  /** Next offset after the last handled batch per partition (ahead of the committed offset in manual mode). */
  private readonly handled = new Map<number, number>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly group: string,
    private readonly logs: readonly PartitionLog[],
    private readonly offsets: GroupOffsets,
    private readonly settings: ConsumerSettings,
  ) {}

  get memberCount(): number {
    return this.members.length;
  }

  /** The group's position in a partition: its committed offset, or the log start when it has none. */
  positionOf(partition: number): number {
    const committed = this.offsets.get(this.group, this.logs[partition].topic, partition) ?? this.logs[partition].startOffset;
    return Math.max(committed, this.handled.get(partition) ?? 0);
  }

  /** Commits for a manual-commit member; false when the partition is not (or no longer) assigned to it. */
  commit(member: GroupMember, partition: number, nextOffset: number): boolean {
    const log = this.logs[partition];
    if (log === undefined) throw new RangeError(`group ${this.group}: partition ${partition} does not exist`);
    if (!Number.isSafeInteger(nextOffset) || nextOffset < 0 || nextOffset > log.end) {
      throw new RangeError(`group ${this.group}: cannot commit offset ${nextOffset} on ${log.topic}/${partition} (end ${log.end})`);
    }
    if (this.assignments.get(partition)?.member !== member) return false;
    this.offsets.commit(this.group, log.topic, partition, nextOffset);
    for (const m of this.members) m.onGroupProgress();
    return true;
  }

  join(member: GroupMember): Promise<void> {
    this.members.push(member);
    return this.rebalance();
  }

  leave(member: GroupMember): Promise<void> {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
    return this.rebalance();
  }

  private rebalance(): Promise<void> {
    this.chain = this.chain
      .then(() => this.applyAssignment())
      .catch((error: unknown) => this.settings.logger(`group ${this.group}: rebalance failed: ${String(error)}`));
    return this.chain;
  }

  private async applyAssignment(): Promise<void> {
    const owners = this.logs.map((_, p) => (this.members.length > 0 ? this.members[p % this.members.length] : undefined));
    const stopping: Promise<void>[] = [];
    for (const [partition, assignment] of this.assignments) {
      if (assignment.member !== owners[partition]) {
        this.assignments.delete(partition);
        stopping.push(assignment.consumer.stop());
      }
    }
    await Promise.all(stopping);
    owners.forEach((member, partition) => {
      if (member && !this.assignments.has(partition)) {
        this.assignments.set(partition, { member, consumer: this.startConsumer(member, partition) });
      }
    });
    for (const member of this.members) member.onGroupProgress();
  }

  private startConsumer(member: GroupMember, partition: number): PartitionConsumer {
    const log = this.logs[partition];
    const startOffset = this.resolveStart(member, log);
    return new PartitionConsumer({
      log,
      handler: member.handler,
      startOffset,
      limits: this.settings.limits,
      retry: this.settings.retry,
      logger: this.settings.logger,
      label: `group ${this.group}`,
      onHandled: (next) => {
        this.handled.set(partition, Math.max(next, this.handled.get(partition) ?? 0));
        if (!member.manualCommit) this.offsets.commit(this.group, log.topic, partition, next);
        for (const m of this.members) m.onGroupProgress();
      },
    });
  }

  private resolveStart(member: GroupMember, log: PartitionLog): number {
    const name = `${log.topic}/${log.partition} (group ${this.group})`;
    const committed = this.offsets.get(this.group, log.topic, log.partition);
    if (committed === undefined) {
      if (member.fromBeginning) return log.startOffset;
      // Remember the reset position now, so a restart before the first record does not skip ahead again.
      this.offsets.commit(this.group, log.topic, log.partition, log.end);
      return log.end;
    }
    if (committed < log.startOffset) {
      this.settings.logger(`${name}: committed offset ${committed} was removed by retention; resuming at ${log.startOffset}`);
      return log.startOffset;
    }
    if (committed > log.end) {
      this.settings.logger(`${name}: committed offset ${committed} is past the log end ${log.end}; resuming at the end`);
      this.offsets.commit(this.group, log.topic, log.partition, log.end);
      return log.end;
    }
    return committed;
  }
}
