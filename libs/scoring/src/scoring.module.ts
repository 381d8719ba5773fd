import { Module } from '@nestjs/common';
import { IntelProviders } from './intel';
import { ScoringConsumer } from './scoring.consumer';

/** The scoring engine: telemetry in, findings and alerts out, over the bus only. */
@Module({ providers: [ScoringConsumer, ...IntelProviders] })
export class ScoringModule {}
