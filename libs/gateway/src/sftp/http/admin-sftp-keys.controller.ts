import { BadRequestException, Body, Controller, Delete, Get, NotFoundException, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@vigil/account';
import { UnknownWorkspaceError } from '@vigil/escalations';
import { InvalidSftpKeyError } from '../keys/public-key';
import type { SftpKey } from '../keys/sftp-key';
import { SftpKeyNotFoundError, SftpKeyRegistry } from '../keys/sftp-key-registry.service';

type ListedSftpKey = SftpKey & { workspaceName?: string };

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
    return mapErrors(() => this.registry.list(workspace).map((key) => this.view(key)));
  }

  @Post()
  async add(@Body() body: unknown): Promise<ListedSftpKey> {
    return this.view(await mapErrorsAsync(() => this.registry.add(body)));
  }

  @Delete(':id')
  async remove(@Param('id') id: string): Promise<{ removed: string }> {
    await mapErrorsAsync(() => this.registry.remove(id));
    return { removed: id };
  }

  private view(key: SftpKey): ListedSftpKey {
    return { ...key, workspaceName: this.registry.workspaceName(key.workspaceId) };
  }
}

function toHttpError(error: unknown): unknown {
  if (error instanceof InvalidSftpKeyError || error instanceof UnknownWorkspaceError) return new BadRequestException({ message: error.message });
  if (error instanceof SftpKeyNotFoundError) return new NotFoundException({ message: error.message });
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
