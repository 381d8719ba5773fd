import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { DnstapIngestModule } from './dnstap/dnstap-ingest.module';
import { IngestController } from './ingest.controller';
import { SftpIngestModule } from './sftp/sftp-ingest.module';
import { TelemetryIntakeModule } from './telemetry-intake.module';

/** The ingest gateway: authenticated, rate-limited telemetry intake onto the events topic (HTTP, and SFTP and dnstap when configured). */
@Module({ imports: [AuthModule, TelemetryIntakeModule, SftpIngestModule, DnstapIngestModule], controllers: [IngestController] })
export class GatewayModule {}
