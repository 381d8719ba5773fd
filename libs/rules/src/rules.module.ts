import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { CustomerRulesService } from './customer-rules.service';
import { DetectionsBodyLimit } from './detections-body-limit';
import { DetectionsController } from './detections.controller';
import { InventoryController } from './inventory.controller';
import { InventoryService } from './inventory.service';

/** The rules service: the threat and flag inventory, and customer Sigma rules (upload, storage, distribution). */
@Module({
  imports: [AuthModule],
  controllers: [InventoryController, DetectionsController],
  providers: [InventoryService, CustomerRulesService, DetectionsBodyLimit],
})
export class RulesModule {}

/** Customer rules without HTTP (tests, tools). */
@Module({ providers: [CustomerRulesService], exports: [CustomerRulesService] })
export class CustomerRulesCoreModule {}
