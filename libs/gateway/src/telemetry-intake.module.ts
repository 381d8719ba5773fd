import { Module } from '@nestjs/common';
import { TelemetryIntake } from './telemetry-intake';

/** One {@link TelemetryIntake} per process, shared by the HTTP ingest controller and SFTP ingest. */
@Module({ providers: [TelemetryIntake], exports: [TelemetryIntake] })
export class TelemetryIntakeModule {}
