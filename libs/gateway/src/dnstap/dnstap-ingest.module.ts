import { Module } from '@nestjs/common';
import { OperatorAccessModule } from '@vigil/escalations';
import { TelemetryIntakeModule } from '../telemetry-intake.module';
import { DnstapListenerService } from './dnstap-listener.service';

/**
 * dnstap ingest (an ingest-gateway feature): a Frame Streams listener, on only when `VIGIL_DNSTAP_PORT` or
 * `VIGIL_DNSTAP_SOCKET` is set. Events go through the gateway's {@link TelemetryIntake}; the workspace directory
 * turns `VIGIL_DNSTAP_WORKSPACE` (an id or a name) into the workspace id.
 */
@Module({
  imports: [OperatorAccessModule, TelemetryIntakeModule],
  providers: [DnstapListenerService],
  exports: [DnstapListenerService],
})
export class DnstapIngestModule {}
