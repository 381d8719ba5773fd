import { BadRequestException, Body, Controller, Delete, Get, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@vigil/account';
import { UnknownWorkspaceError } from '@vigil/escalations';
import { withDomainErrors, type DomainErrorStatus } from '@vigil/platform';
import { InvalidSftpKeyError } from '../keys/public-key';
import type { SftpKey } from '../keys/sftp-key';
import { SftpKeyNotFoundError, SftpKeyRegistry } from '../keys/sftp-key-registry.service';

type ListedSftpKey = SftpKey & { workspaceName?: string };

/** What the registry's errors answer. */
const ERRORS: DomainErrorStatus[] = [
  [InvalidSftpKeyError, 400],
  [UnknownWorkspaceError, 400],
  [SftpKeyNotFoundError, 404],
];

/**
 * Operator API of SFTP keys (`vigil sftp-keys ...`): which public keys may upload logs into a workspace's SFTP
 * area (the SFTP user name is the workspace id).
 */
@Controller('admin/v1/sftp-keys')
@UseGuards(AdminGuard)
export class AdminSftpKeysController {
  constructor(private readonly registry: SftpKeyRegistry) {}

  @Get()
  list(@Query('workspace') workspace?: unknown): ListedSftpKey[] {
    if (workspace !== undefined && typeof workspace !== 'string') throw new BadRequestException({ message: 'workspace must be given once' });
    return withDomainErrors(ERRORS, () => this.registry.list(workspace).map((key) => this.view(key)));
  }

  @Post()
  async add(@Body() body: unknown): Promise<ListedSftpKey> {
    return this.view(await withDomainErrors(ERRORS, () => this.registry.add(body)));
  }

  @Delete(':id')
  async remove(@Param('id') id: string): Promise<{ removed: string }> {
    await withDomainErrors(ERRORS, () => this.registry.remove(id));
    return { removed: id };
  }

  private view(key: SftpKey): ListedSftpKey {
    return { ...key, workspaceName: this.registry.workspaceName(key.workspaceId) };
  }
}
