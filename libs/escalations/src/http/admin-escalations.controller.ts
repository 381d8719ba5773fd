import { BadRequestException, Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@vigil/account';
import { DeliveryService, type TestOutcome } from '../delivery/delivery.service';
import type { EscalationDestination } from '../destinations/destination';
import { DestinationNotFoundError, DestinationRegistry } from '../destinations/destination-registry.service';
import { destinationView, type DestinationView } from '../destinations/destination-view';
import { InvalidDestinationError } from '../destinations/input-reader';
import { UnknownWorkspaceError, WorkspaceDirectoryService } from '../operator/workspace-directory.service';

type ListedDestination = DestinationView & { workspaceName?: string };

/**
 * Operator API of escalations (`vigil escalations ...`). Secrets are write-only: the answers show fingerprints,
 * except the webhook secret Vigil generates, which the create answer carries once.
 */
@Controller('admin/v1/escalations')
@UseGuards(AdminGuard)
export class AdminEscalationsController {
  constructor(
    private readonly registry: DestinationRegistry,
    private readonly delivery: DeliveryService,
    private readonly workspaces: WorkspaceDirectoryService,
  ) {}

  @Get()
  list(@Query('workspace') workspace?: string): ListedDestination[] {
    if (workspace !== undefined && typeof workspace !== 'string') throw new BadRequestException({ message: 'workspace must be given once' });
    return mapErrors(() => this.registry.list(workspace).map((d) => this.view(d)));
  }

  @Post()
  async create(@Body() body: unknown): Promise<ListedDestination & { secret?: string }> {
    const { destination, generatedSecret } = await mapErrorsAsync(() => this.registry.create(body));
    return { ...this.view(destination), ...(generatedSecret !== undefined ? { secret: generatedSecret } : {}) };
  }

  @Get(':id')
  get(@Param('id') id: string): ListedDestination {
    return mapErrors(() => this.view(this.registry.get(id)));
  }

  @Delete(':id')
  async remove(@Param('id') id: string): Promise<{ removed: string }> {
    await mapErrorsAsync(() => this.registry.remove(id));
    return { removed: id };
  }

  @Post(':id/test')
  @HttpCode(200)
  test(@Param('id') id: string): Promise<TestOutcome> {
    return mapErrorsAsync(() => this.delivery.test(id));
  }

  private view(destination: EscalationDestination): ListedDestination {
    return { ...destinationView(destination), workspaceName: this.workspaces.nameOf(destination.workspaceId) };
  }
}

function toHttpError(error: unknown): unknown {
  if (error instanceof InvalidDestinationError || error instanceof UnknownWorkspaceError) return new BadRequestException({ message: error.message });
  if (error instanceof DestinationNotFoundError) return new NotFoundException({ message: error.message });
  return error;
}

function mapErrors<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw toHttpError(error);
  }
}

async function mapErrorsAsync<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw toHttpError(error);
  }
}
