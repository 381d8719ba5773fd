import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@vigil/account';
import { withDomainErrors, type DomainErrorStatus } from '@vigil/platform';
import { DeliveryService, type TestOutcome } from '../delivery/delivery.service';
import type { EscalationDestination } from '../destinations/destination';
import { DestinationNotFoundError, DestinationRegistry } from '../destinations/destination-registry.service';
import { destinationView, type DestinationView } from '../destinations/destination-view';
import { InvalidDestinationError } from '../destinations/input-reader';
import { UnknownWorkspaceError, WorkspaceDirectoryService } from '../operator/workspace-directory.service';

type ListedDestination = DestinationView & { workspaceName?: string };

/** What the registry's and the delivery's errors answer. */
const ERRORS: DomainErrorStatus[] = [
  [InvalidDestinationError, 400],
  [UnknownWorkspaceError, 400],
  [DestinationNotFoundError, 404],
];

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
    return withDomainErrors(ERRORS, () => this.registry.list(workspace).map((d) => this.view(d)));
  }

  @Post()
  async create(@Body() body: unknown): Promise<ListedDestination & { secret?: string }> {
    const { destination, generatedSecret } = await withDomainErrors(ERRORS, () => this.registry.create(body));
    return { ...this.view(destination), ...(generatedSecret !== undefined ? { secret: generatedSecret } : {}) };
  }

  @Get(':id')
  get(@Param('id') id: string): ListedDestination {
    return withDomainErrors(ERRORS, () => this.view(this.registry.get(id)));
  }

  @Delete(':id')
  async remove(@Param('id') id: string): Promise<{ removed: string }> {
    await withDomainErrors(ERRORS, () => this.registry.remove(id));
    return { removed: id };
  }

  @Post(':id/test')
  @HttpCode(200)
  test(@Param('id') id: string): Promise<TestOutcome> {
    return withDomainErrors(ERRORS, () => this.delivery.test(id));
  }

  private view(destination: EscalationDestination): ListedDestination {
    return { ...destinationView(destination), workspaceName: this.workspaces.nameOf(destination.workspaceId) };
  }
}
