import { Module } from '@nestjs/common';
import { IntelProviders } from './intel';
import { ScoringConsumer } from './scoring.consumer';
import { RuleStatusReporter } from './sigma/rule-status-reporter';

/** The scoring engine: telemetry in, findings and alerts out, over the bus only. */
@Module({ providers: [ScoringConsumer, RuleStatusReporter, ...IntelProviders] })
export class ScoringModule {}
