import 'reflect-metadata';
import { FindingsModule } from '@vigil/findings';
import { runVigilService } from '@vigil/platform';
import { TelemetryArchiveModule } from '@vigil/telemetry-archive';

void runVigilService({ name: 'findings-api', features: [FindingsModule, TelemetryArchiveModule] });
