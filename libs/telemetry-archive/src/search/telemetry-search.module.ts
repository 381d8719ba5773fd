import { Module } from '@nestjs/common';
import { OperatorAccessModule } from '@vigil/escalations';
import { AdminTelemetryController } from './admin-telemetry.controller';

/** The operator's search over the telemetry archive (hosted by the findings-api with the archive itself). */
@Module({ imports: [OperatorAccessModule], controllers: [AdminTelemetryController] })
export class TelemetrySearchModule {}
