import { BadRequestException, Controller, Delete, NotFoundException, Param, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@vigil/account';
import { CustomerRulesService } from './customer-rules.service';

const WORKSPACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Operator API of the rules service. The public API can only replace a workspace's whole rule set; the web
 * console of a split deployment deletes one rule here, for the signed-in analyst's own workspace.
 */
@Controller('admin/v1/workspaces/:workspaceId/rules')
@UseGuards(AdminGuard)
export class AdminRulesController {
  constructor(private readonly rules: CustomerRulesService) {}

  @Delete(':ruleId')
  async remove(@Param('workspaceId') workspaceId: string, @Param('ruleId') ruleId: string): Promise<{ deleted: string[] }> {
    if (!WORKSPACE_ID.test(workspaceId)) throw new BadRequestException({ message: `workspaceId must be a workspace's UUID, got ${JSON.stringify(workspaceId)}` });
    if (ruleId.length === 0 || ruleId.length > 256) throw new BadRequestException({ message: 'ruleId must be the id of a stored rule (1-256 characters)' });
    const deleted = await this.rules.remove(workspaceId.toLowerCase(), [ruleId]);
    if (deleted.length === 0) throw new NotFoundException({ message: `The workspace has no stored rule with the id ${JSON.stringify(ruleId)}` });
    return { deleted };
  }
}
