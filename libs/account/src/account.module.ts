import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { AccountStatusService } from './account-status.service';
import { AccountService } from './account.service';
import { AccountStatusController } from './http/account-status.controller';
import { AdminKeysController } from './http/admin-keys.controller';
import { AdminGuard } from './http/admin.guard';

/** The account service: keys and workspaces, account status, operator key management. */
@Module({
  imports: [AuthModule],
  controllers: [AccountStatusController, AdminKeysController],
  providers: [AccountService, AccountStatusService, AdminGuard],
  exports: [AccountService],
})
export class AccountModule {}

/** The account service without HTTP, for the CLI's offline mode. */
@Module({ providers: [AccountService], exports: [AccountService] })
export class AccountCoreModule {}
