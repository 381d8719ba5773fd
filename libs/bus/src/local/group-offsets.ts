/**
 * Committed consumer-group offsets, one JSON file per group under `<dir>/_groups/`, replaced atomically.
 * Commits update memory at once and reach the disk after a short debounce (at-least-once: a crash may only
 * lose the latest commits, so some handled records are delivered again, never skipped).
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import { ensureDirectory, writeFileAtomic } from './fs-util';
import type { BusLogger } from './partition-log';

const FILE_VERSION = 1;

interface TopicOffsets {
  /** Epoch ms of the latest commit on this topic. */
  committedAt: number;
  /** Partition → next offset to consume. */
  partitions: Map<number, number>;
}

interface GroupFile {
  version: number;
  group: string;
  topics: Record<string, { committedAt: number; partitions: Record<string, number> }>;
}

interface GroupState {
  topics: Map<string, TopicOffsets>;
  dirty: boolean;
  /** The write in progress, if any. */
  writing: Promise<void> | null;
}

export interface GroupTopicOffsets {
  group: string;
  committedAt: number;
  partitions: ReadonlyMap<number, number>;
}

export class GroupOffsets {
  private readonly groups = new Map<string, GroupState>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly dirPath: string,
    private readonly flushDelayMs: number,
    private readonly log: BusLogger,
  ) {}

  static async load(dirPath: string, flushDelayMs: number, log: BusLogger): Promise<GroupOffsets> {
    await ensureDirectory(dirPath);
    const store = new GroupOffsets(dirPath, flushDelayMs, log);
    for (const name of await fs.readdir(dirPath)) {
      const filePath = path.join(dirPath, name);
      if (name.endsWith('.json.tmp')) {
        await fs.rm(filePath, { force: true });
      } else if (name.endsWith('.json')) {
        const { group, topics } = parseGroupFile(filePath, await fs.readFile(filePath, 'utf8'));
        store.groups.set(group, { topics, dirty: false, writing: null });
      }
    }
    return store;
  }

  get(group: string, topic: string, partition: number): number | undefined {
    return this.groups.get(group)?.topics.get(topic)?.partitions.get(partition);
  }

  /** Records that `group` has handled everything below `offset` (its next offset to consume). */
  commit(group: string, topic: string, partition: number, offset: number): void {
    if (this.closed) return;
    let state = this.groups.get(group);
    if (!state) {
      state = { topics: new Map(), dirty: false, writing: null };
      this.groups.set(group, state);
    }
    let offsets = state.topics.get(topic);
    if (!offsets) {
      offsets = { committedAt: 0, partitions: new Map() };
      state.topics.set(topic, offsets);
    }
    if (offsets.partitions.get(partition) === offset) return;
    offsets.partitions.set(partition, offset);
    offsets.committedAt = Date.now();
    state.dirty = true;
    this.schedule();
  }

  /** Every group that has committed on `topic`. */
  *groupsOn(topic: string): Iterable<GroupTopicOffsets> {
    for (const [group, state] of this.groups) {
      const offsets = state.topics.get(topic);
      if (offsets) yield { group, committedAt: offsets.committedAt, partitions: offsets.partitions };
    }
  }

  /** Persists every pending commit. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await Promise.all([...this.groups.entries()].map(([group, state]) => this.persist(group, state)));
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((error: unknown) => {
        this.log(`could not persist consumer-group offsets (will retry): ${describe(error)}`);
        this.schedule();
      });
    }, this.flushDelayMs);
    this.timer.unref();
  }

  private async persist(group: string, state: GroupState): Promise<void> {
    while (state.writing) await state.writing.catch(() => undefined);
    if (!state.dirty) return;
    state.dirty = false;
    const body = JSON.stringify(toFile(group, state));
    state.writing = writeFileAtomic(path.join(this.dirPath, groupFileName(group)), body);
    try {
      await state.writing;
    } catch (error) {
      state.dirty = true;
      throw error;
    } finally {
      state.writing = null;
    }
  }
}

const MAX_GROUP_FILE_NAME = 240;

/** File-system safe, collision-free name for a group. */
function groupFileName(group: string): string {
  return `${encodeURIComponent(group).replace(/\./g, '%2E')}.json`;
}

/** Throws a clear error for a group name that cannot be stored (empty, or too long once encoded as a file name). */
export function checkGroupName(group: unknown): asserts group is string {
  if (typeof group !== 'string' || group.length === 0) throw new TypeError('consumer group must be a non-empty string');
  if (Buffer.byteLength(groupFileName(group)) > MAX_GROUP_FILE_NAME) {
    throw new TypeError(`consumer group name is too long: ${group.slice(0, 40)}…`);
  }
}

function toFile(group: string, state: GroupState): GroupFile {
  const topics: GroupFile['topics'] = {};
  for (const [topic, offsets] of state.topics) {
    topics[topic] = { committedAt: offsets.committedAt, partitions: Object.fromEntries(offsets.partitions) };
  }
  return { version: FILE_VERSION, group, topics };
}

function parseGroupFile(filePath: string, text: string): { group: string; topics: Map<string, TopicOffsets> } {
  const fail = (why: string): never => {
    throw new Error(
      `consumer-group offsets file ${filePath} is invalid (${why}); restore it or delete it to restart that group from its reset position`,
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return fail(`not JSON: ${describe(error)}`);
  }
  const file = parsed as Partial<GroupFile> | null;
  if (!file || typeof file !== 'object' || file.version !== FILE_VERSION) return fail('unknown version');
  if (typeof file.group !== 'string' || !file.topics || typeof file.topics !== 'object') return fail('missing group or topics');
  const topics = new Map<string, TopicOffsets>();
  for (const [topic, entry] of Object.entries(file.topics)) {
    if (!entry || typeof entry.committedAt !== 'number' || !entry.partitions || typeof entry.partitions !== 'object') {
      return fail(`bad entry for topic ${topic}`);
    }
    const partitions = new Map<number, number>();
    for (const [partition, offset] of Object.entries(entry.partitions)) {
      if (!/^\d+$/.test(partition) || !Number.isSafeInteger(offset) || offset < 0) {
        return fail(`bad offset for ${topic}/${partition}`);
      }
      partitions.set(Number(partition), offset);
    }
    topics.set(topic, { committedAt: entry.committedAt, partitions });
  }
  return { group: file.group, topics };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
