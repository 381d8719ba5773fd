import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type Subscription } from '@vigil/bus';
import { TOPICS, type WorkspaceRecord } from '@vigil/contracts';

/** A workspace reference an operator gave that names no known workspace (the API answers 400). */
export class UnknownWorkspaceError extends Error {
  override readonly name = 'UnknownWorkspaceError';
}

/**
 * Workspace ids and names as announced on `ctl.workspaces.v1`, so operator endpoints of this service accept a
 * workspace by id or by name (as `vigil keys create --workspace NAME` set it).
 */
@Injectable()
export class WorkspaceDirectoryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WorkspaceDirectoryService.name);
  private readonly byId = new Map<string, WorkspaceRecord>();
  private subscription?: Subscription;

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe({ topic: TOPICS.workspaces.name }, async (batch) => {
      for (const record of batch.records) {
        try {
          const workspace = JSON.parse(record.value.toString('utf8')) as WorkspaceRecord;
          if (typeof workspace.workspaceId === 'string' && typeof workspace.name === 'string') this.byId.set(workspace.workspaceId, workspace);
        } catch (error) {
          this.logger.warn(`skipping an unreadable workspace record at offset ${record.offset}: ${String(error)}`);
        }
      }
    });
    await this.subscription.caughtUp;
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  /** The workspace an id or a name refers to. */
  resolve(reference: string): WorkspaceRecord {
    const byId = this.byId.get(reference);
    if (byId) return byId;
    const named = [...this.byId.values()].filter((w) => w.name === reference);
    if (named.length === 1) return named[0];
    if (named.length > 1) throw new UnknownWorkspaceError(`several workspaces are named ${JSON.stringify(reference)}; give the workspace id`);
    throw new UnknownWorkspaceError(`no workspace has the id or name ${JSON.stringify(reference)}`);
  }

  nameOf(workspaceId: string): string | undefined {
    return this.byId.get(workspaceId)?.name;
  }
}

