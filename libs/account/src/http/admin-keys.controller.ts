import { Body, Controller, Get, NotFoundException, Param, Post, UseGuards, ValidationPipe } from '@nestjs/common';
import { AccountService, KeyNotFoundError, type KeyListing } from '../account.service';
import { AdminGuard } from './admin.guard';
import { CreateKeyDto } from './create-key.dto';

/** Key management for operators (used by `npm run vigil -- keys ...` while the server runs). */
@Controller('admin/v1/keys')
@UseGuards(AdminGuard)
export class AdminKeysController {
  constructor(private readonly accounts: AccountService) {}

  @Get()
  list(): Promise<KeyListing[]> {
    return this.accounts.listKeys();
  }

  @Post()
  async create(@Body(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })) dto: CreateKeyDto) {
    const { key, record, workspace } = await this.accounts.createKey(dto);
    return { key, ...record, workspaceName: workspace.name };
  }

  @Post(':prefix/activate')
  activate(@Param('prefix') prefix: string) {
    return this.withKnownKey(() => this.accounts.setStatus(prefix, 'active'));
  }

  @Post(':prefix/revoke')
  revoke(@Param('prefix') prefix: string) {
    return this.withKnownKey(() => this.accounts.setStatus(prefix, 'revoked'));
  }

  private async withKnownKey<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof KeyNotFoundError) throw new NotFoundException({ message: error.message });
      throw error;
    }
  }
}
