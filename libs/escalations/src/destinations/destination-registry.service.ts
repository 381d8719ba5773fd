import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { ESCALATIONS_OPTIONS, type EscalationsOptions } from '../escalations-options';
import { WorkspaceDirectoryService } from '../operator/workspace-directory.service';
import { controlRecord, decodeControlRecord, type DestinationControlRecord } from './control-record';
import type { EscalationDestination } from './destination';
import { DestinationDirectory } from './destination-directory';
import { parseDestinationInput } from './destination-input';
import { destinationView } from './destination-view';
import { DestinationsRepository } from './destinations.repository';
import { InvalidDestinationError } from './input-reader';
import { ESCALATIONS_DATABASE, ESCALATIONS_MIGRATIONS } from './migrations';

export const MAX_DESTINATIONS_PER_WORKSPACE = 25;

export class DestinationNotFoundError extends Error {
  override readonly name = 'DestinationNotFoundError';
}

export interface CreatedDestination {
  destination: EscalationDestination;
  /** The webhook secret Vigil generated, when none was given: shown once, in the answer to the create call. */
  generatedSecret?: string;
}

/**
 * The escalation destinations: stored in this service's `escalations.destinations` table and announced on the
 * compacted `ctl.escalations.v1`, which every replica follows (and mirrors into its table), so all replicas see
 * adds and removes within seconds. At start-up, rows the topic lacks (or has older) are announced again, which
 * heals a lost or trimmed topic; versions decide, so a stale row never undoes a newer change.
 */
@Injectable()
export class DestinationRegistry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DestinationRegistry.name);
  private readonly directory = new DestinationDirectory();
  private readonly tableVersions = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private readonly topic: string;
  private repository!: DestinationsRepository;
  private subscription?: Subscription;
  private lastVersion = 0;
  private writes: Promise<unknown> = Promise.resolve();
  private resolveReady!: () => void;
  /** Resolves once the registry has caught up with the control topic. */
  readonly ready = new Promise<void>((resolve) => (this.resolveReady = resolve));

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    private readonly workspaces: WorkspaceDirectoryService,
    private readonly readiness: Readiness,
    @Optional() @Inject(ESCALATIONS_OPTIONS) options: EscalationsOptions = {},
  ) {
    this.topic = options.topics?.control ?? TOPICS.escalations.name;
    readiness.expect('escalations');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.repository = new DestinationsRepository(await this.stores.open(ESCALATIONS_DATABASE, ESCALATIONS_MIGRATIONS));
    const rows = await this.repository.latest();
    for (const row of rows) this.tableVersions.set(row.id, row.version);
    this.subscription = await this.bus.subscribe({ topic: this.topic }, (batch) => this.follow(batch));
    await this.subscription.caughtUp;
    const missing = rows.filter((row) => (this.directory.versionOf(row.id) ?? -1) < row.version);
    if (missing.length) {
      await this.bus.publish(this.topic, missing.map(controlRecord));
      for (const row of missing) this.directory.apply(row);
      this.logger.log(`re-announced ${missing.length} escalation destination state(s) missing from ${this.topic}`);
    }
    this.lastVersion = Math.max(this.directory.maxVersion(), ...rows.map((r) => r.version));
    this.resolveReady();
    this.readiness.ready('escalations');
    this.notify();
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  /** Called after every change of the active destinations. */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  active(): EscalationDestination[] {
    return this.directory.active();
  }

  get(id: string): EscalationDestination {
    const destination = this.directory.get(id);
    if (!destination) throw new DestinationNotFoundError(`no escalation destination has the id ${JSON.stringify(id)}`);
    return destination;
  }

  /** Active destinations, of one workspace (id or name) when given. */
  list(workspace?: string): EscalationDestination[] {
    const all = this.directory.active();
    if (workspace === undefined) return all;
    const { workspaceId } = this.workspaces.resolve(workspace);
    return all.filter((d) => d.workspaceId === workspaceId);
  }

  /** Validates a create request, stores and announces the destination. */
  create(body: unknown): Promise<CreatedDestination> {
    const input = parseDestinationInput(body);
    const workspace = this.workspaces.resolve(input.workspace);
    return this.serialised(async () => {
      const siblings = this.directory.active().filter((d) => d.workspaceId === workspace.workspaceId);
      if (siblings.length >= MAX_DESTINATIONS_PER_WORKSPACE) {
        throw new InvalidDestinationError(`workspace ${workspace.name} already has ${MAX_DESTINATIONS_PER_WORKSPACE} escalation destinations (the limit)`);
      }
      const id = randomUUID();
      const name = input.name ?? `${input.target.kind}-${id.slice(0, 8)}`;
      if (siblings.some((d) => d.name === name)) throw new InvalidDestinationError(`workspace ${workspace.name} already has a destination named ${JSON.stringify(name)}`);
      let generatedSecret: string | undefined;
      let target = input.target;
      if (target.kind === 'webhook' && target.secret === undefined) {
        generatedSecret = randomBytes(32).toString('base64url');
        target = { ...target, secret: generatedSecret };
      }
      const destination: EscalationDestination = {
        id,
        workspaceId: workspace.workspaceId,
        name,
        format: input.format,
        minSeverity: input.minSeverity,
        createdAt: new Date().toISOString(),
        retry: input.retry,
        target: target as EscalationDestination['target'],
      };
      await this.write({ v: 1, id, workspaceId: workspace.workspaceId, version: this.nextVersion(), removed: false, destination });
      const view = destinationView(destination);
      this.logger.log(`escalation "${name}" (${id}) added for workspace ${workspace.name}: ${view.kind} ${view.target}, format ${destination.format}, minSeverity ${destination.minSeverity}`);
      return { destination, generatedSecret };
    });
  }

  remove(id: string): Promise<EscalationDestination> {
    return this.serialised(async () => {
      const destination = this.get(id);
      await this.write({ v: 1, id, workspaceId: destination.workspaceId, version: this.nextVersion(), removed: true });
      this.logger.log(`escalation "${destination.name}" (${id}) removed`);
      return destination;
    });
  }

  private async write(record: DestinationControlRecord): Promise<void> {
    await this.repository.save([record]);
    this.tableVersions.set(record.id, record.version);
    await this.bus.publish(this.topic, [controlRecord(record)]);
    if (this.directory.apply(record)) this.notify();
  }

  private async follow(batch: BusBatch): Promise<void> {
    const mirror: DestinationControlRecord[] = [];
    let changed = false;
    for (const record of batch.records) {
      let entry: DestinationControlRecord;
      try {
        entry = decodeControlRecord(record.value);
      } catch (error) {
        // The message never quotes the value: it may hold secrets.
        this.logger.warn(`skipping an unreadable record on ${this.topic} at offset ${record.offset}: ${(error as Error).name}`);
        continue;
      }
      if (this.directory.apply(entry)) changed = true;
      if ((this.tableVersions.get(entry.id) ?? -1) < entry.version) mirror.push(entry);
    }
    if (mirror.length) {
      // Before readiness the repository exists already (opened first); a failure re-delivers the batch.
      await this.repository.save(mirror);
      for (const entry of mirror) this.tableVersions.set(entry.id, Math.max(entry.version, this.tableVersions.get(entry.id) ?? 0));
    }
    if (changed) this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private nextVersion(): number {
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1, this.directory.maxVersion() + 1);
    return this.lastVersion;
  }

  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writes.then(task, task);
    this.writes = run.catch(() => undefined);
    return run;
  }
}
