import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { IngestController } from './ingest.controller';

/** The ingest gateway: authenticated, rate-limited telemetry intake onto the events topic. */
@Module({ imports: [AuthModule], controllers: [IngestController] })
export class GatewayModule {}
