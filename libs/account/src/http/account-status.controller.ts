import { Controller, Get, UseGuards } from '@nestjs/common';
import { AllowExpiredKey, ApiKeyGuard, CurrentPrincipal, type Principal } from '@vigil/auth';
import { AccountStatusService, type AccountStatus } from '../account-status.service';

@Controller('v1/account')
@UseGuards(ApiKeyGuard)
export class AccountStatusController {
  constructor(private readonly status: AccountStatusService) {}

  /** Answers for inactive and expired keys too: clients call it first to learn why they are refused. */
  @Get('status')
  @AllowExpiredKey()
  get(@CurrentPrincipal() principal: Principal): Promise<AccountStatus> {
    return this.status.statusOf(principal);
  }
}
