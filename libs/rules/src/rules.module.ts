import { Module } from '@nestjs/common';
import { AdminGuard, OperatorTokenVerifier } from '@vigil/account';
import { AuthModule } from '@vigil/auth';
import { OPERATOR_TOKEN_VERIFIER } from '@vigil/platform';
import { AdminRulesController } from './admin-rules.controller';
import { CustomerRulesService } from './customer-rules.service';
import { DetectionsBodyLimit } from './detections-body-limit';
import { DetectionsController } from './detections.controller';
import { InventoryController } from './inventory.controller';
import { InventoryService } from './inventory.service';
import { RuleStatusBoard } from './status/rule-status-board';
import { UploadValidator } from './upload/upload-validator';

/** The rules service: the threat and flag inventory, customer Sigma rules (upload, storage, distribution) and their operator route. */
@Module({
  imports: [AuthModule],
  controllers: [InventoryController, DetectionsController, AdminRulesController],
  providers: [
    InventoryService,
    CustomerRulesService,
    UploadValidator,
    RuleStatusBoard,
    DetectionsBodyLimit,
    // The operator route's credential, also where the account service does not run in this process.
    OperatorTokenVerifier,
    AdminGuard,
    { provide: OPERATOR_TOKEN_VERIFIER, useExisting: OperatorTokenVerifier },
  ],
})
export class RulesModule {}

/** Customer rules without HTTP (tests, tools). */
@Module({ providers: [CustomerRulesService, UploadValidator, RuleStatusBoard], exports: [CustomerRulesService] })
export class CustomerRulesCoreModule {}
