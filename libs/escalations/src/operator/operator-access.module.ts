import { Module } from '@nestjs/common';
import { AdminGuard, OperatorTokenVerifier } from '@vigil/account';
import { OPERATOR_TOKEN_VERIFIER } from '@vigil/platform';
import { WorkspaceDirectoryService } from './workspace-directory.service';

/**
 * What the findings-api's operator endpoints (escalations, telemetry search) need, also when the account service
 * does not run in the same process: the operator-token check for the request gate and AdminGuard, and the
 * workspace directory that turns a workspace name into its id. One instance per process.
 */
@Module({
  providers: [OperatorTokenVerifier, AdminGuard, { provide: OPERATOR_TOKEN_VERIFIER, useExisting: OperatorTokenVerifier }, WorkspaceDirectoryService],
  exports: [OperatorTokenVerifier, AdminGuard, OPERATOR_TOKEN_VERIFIER, WorkspaceDirectoryService],
})
export class OperatorAccessModule {}
