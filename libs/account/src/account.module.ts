import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { OPERATOR_TOKEN_VERIFIER } from '@vigil/platform';
import { AccountStatusService } from './account-status.service';
import { AccountService } from './account.service';
import { AccountStatusController } from './http/account-status.controller';
import { AdminKeysController } from './http/admin-keys.controller';
import { AdminGuard } from './http/admin.guard';
import { OperatorTokenVerifier } from './http/operator-token.verifier';

/** The account service: keys and workspaces, account status, operator key management. */
@Module({
  imports: [AuthModule],
  controllers: [AccountStatusController, AdminKeysController],
  providers: [AccountService, AccountStatusService, OperatorTokenVerifier, AdminGuard, { provide: OPERATOR_TOKEN_VERIFIER, useExisting: OperatorTokenVerifier }],
  exports: [AccountService],
})
export class AccountModule {}

/** The account service without HTTP, for the CLI's offline mode. */
@Module({ providers: [AccountService], exports: [AccountService] })
export class AccountCoreModule {}
