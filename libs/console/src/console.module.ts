import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { ConsoleAssetsService } from './assets/console-assets.service';
import { ConsoleAnalystController } from './http/analyst.controller';
import { ConsoleGuard } from './http/console.guard';
import { ConsoleOperatorController } from './http/operator.controller';
import { ConsoleSessionController } from './http/session.controller';
import { ConsoleStaticController } from './http/static.controller';
import { LastUsedTracker } from './last-used-tracker';
import { ConsoleAccounts } from './remote/console-accounts';
import { ConsoleRules } from './remote/console-rules';
import { ConsoleSessionsService } from './session/console-sessions.service';
import { ConsoleTrailingSlashRedirect } from './http/trailing-slash-redirect';

/**
 * The web console under /console: the built front-end and its JSON API (/console/api/*), which uses the services
 * of the other feature modules running in this process (account, findings, rules) rather than its own copies; in a
 * split deployment it calls the account and rules services over HTTP (VIGIL_ACCOUNT_URL, VIGIL_RULES_URL).
 */
@Module({
  imports: [AuthModule],
  controllers: [ConsoleStaticController, ConsoleSessionController, ConsoleOperatorController, ConsoleAnalystController],
  providers: [ConsoleAssetsService, ConsoleSessionsService, ConsoleGuard, LastUsedTracker, ConsoleAccounts, ConsoleRules, ConsoleTrailingSlashRedirect],
})
export class ConsoleModule {}
