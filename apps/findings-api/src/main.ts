import 'reflect-metadata';
import { ConsoleModule } from '@vigil/console';
import { EscalationsModule } from '@vigil/escalations';
import { FindingsModule } from '@vigil/findings';
import { runVigilService } from '@vigil/platform';
import { TelemetryArchiveModule, TelemetrySearchModule } from '@vigil/telemetry-archive';

void runVigilService({ name: 'findings-api', features: [FindingsModule, TelemetryArchiveModule, TelemetrySearchModule, EscalationsModule, ConsoleModule] });
