import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiKeyGuard } from '@vigil/auth';
import type { FlagDictionary, ThreatDictionary } from '@vigil/contracts';
import { InventoryService } from './inventory.service';

/** GET /v1/ae/inventory/{threats,flags}: the current threat and flag dictionaries. */
@Controller('v1/ae/inventory')
@UseGuards(ApiKeyGuard)
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get('threats')
  threats(): { threats: ThreatDictionary } {
    return { threats: this.inventory.threats() };
  }

  @Get('flags')
  flags(): { flags: FlagDictionary } {
    return { flags: this.inventory.flags() };
  }
}
