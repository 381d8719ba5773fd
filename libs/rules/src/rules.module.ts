import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { CustomerRulesService } from './customer-rules.service';
import { DetectionsBodyLimit } from './detections-body-limit';
import { DetectionsController } from './detections.controller';
import { InventoryController } from './inventory.controller';
import { InventoryService } from './inventory.service';
import { RuleStatusBoard } from './status/rule-status-board';
import { UploadValidator } from './upload/upload-validator';

/** The rules service: the threat and flag inventory, and customer Sigma rules (upload, storage, distribution). */
@Module({
  imports: [AuthModule],
  controllers: [InventoryController, DetectionsController],
  providers: [InventoryService, CustomerRulesService, UploadValidator, RuleStatusBoard, DetectionsBodyLimit],
})
export class RulesModule {}

/** Customer rules without HTTP (tests, tools). */
@Module({ providers: [CustomerRulesService, UploadValidator, RuleStatusBoard], exports: [CustomerRulesService] })
export class CustomerRulesCoreModule {}
