import { BadRequestException, Body, Controller, Get, NotFoundException, Param, Patch, Post, UseGuards, ValidationPipe } from '@nestjs/common';
import { AccountService, KeyNotFoundError, type KeyListing } from '../account.service';
import { AdminGuard } from './admin.guard';
import { CreateKeyDto } from './create-key.dto';
import { SetExpiryDto } from './set-expiry.dto';

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

  /** Sets or clears a key's expiry; `:prefix` is the key's prefix or hash, as for activate and revoke. */
  @Patch(':prefix')
  setExpiry(@Param('prefix') prefix: string, @Body(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })) dto: SetExpiryDto) {
    let expiresAt: string | null = null;
    if (dto.expiresAt !== null) {
      const millis = calendarDateTime(dto.expiresAt);
      if (millis === undefined) throw new BadRequestException({ message: `expiresAt ${JSON.stringify(dto.expiresAt)} is not a date of the calendar` });
      expiresAt = new Date(millis).toISOString();
    }
    return this.withKnownKey(() => this.accounts.setExpiry(prefix, expiresAt));
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

/** The instant of an RFC 3339 date-time, or undefined when its day does not exist (the shape allows 2027-02-30, Date.parse rolls it over). */
function calendarDateTime(value: string): number | undefined {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const millis = Date.parse(value);
  if (Number.isNaN(millis) || calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  return millis;
}
