import { Module } from '@nestjs/common';
import { TelemetryArchiveConsumer } from './telemetry-archive.consumer';

@Module({ providers: [TelemetryArchiveConsumer] })
export class TelemetryArchiveModule {}
