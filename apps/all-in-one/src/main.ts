import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { AccountModule } from '@vigil/account';
import { ConsoleModule } from '@vigil/console';
import { EscalationsModule } from '@vigil/escalations';
import { FindingsModule } from '@vigil/findings';
import { GatewayModule } from '@vigil/gateway';
import { runVigilService } from '@vigil/platform';
import { RulesModule } from '@vigil/rules';
import { ScoringModule } from '@vigil/scoring';
import { TelemetryArchiveModule, TelemetrySearchModule } from '@vigil/telemetry-archive';

const SERVICES: Record<string, Type[]> = {
  account: [AccountModule],
  rules: [RulesModule],
  'ingest-gateway': [GatewayModule],
  'scoring-engine': [ScoringModule],
  'findings-api': [FindingsModule, TelemetryArchiveModule, TelemetrySearchModule, EscalationsModule, ConsoleModule],
};

/** VIGIL_SERVICES (comma-separated) runs a subset of the services in this process; default: all five. */
function selectedServices(): Type[] {
  const requested = process.env.VIGIL_SERVICES?.split(',').map((s) => s.trim()).filter(Boolean) ?? Object.keys(SERVICES);
  const unknown = requested.filter((name) => !(name in SERVICES));
  if (unknown.length) {
    process.stderr.write(`vigil: invalid configuration: VIGIL_SERVICES names unknown services (${unknown.join(', ')}); known: ${Object.keys(SERVICES).join(', ')}\n`);
    process.exit(2);
  }
  return requested.flatMap((name) => SERVICES[name]);
}

/** The embedded default: all five services in one process on one port. */
void runVigilService({ name: 'all-in-one', features: selectedServices() });
