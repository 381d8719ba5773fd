import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { InventoryController } from './inventory.controller';
import { InventoryService } from './inventory.service';

/** The rules service: the threat and flag inventory (and, later, customer Sigma rules). */
@Module({ imports: [AuthModule], controllers: [InventoryController], providers: [InventoryService] })
export class RulesModule {}
