import { Module } from '@nestjs/common';
import { AuthModule } from '@vigil/auth';
import { FindingsStoreService } from './findings-store.service';
import { AlertsController } from './http/alerts.controller';
import { FindingsController } from './http/findings.controller';
import { ResultsWriterConsumer } from './results-writer.consumer';

/** The findings API: stores findings and alerts from the bus and serves them by bookmark. */
@Module({
  imports: [AuthModule],
  controllers: [FindingsController, AlertsController],
  providers: [FindingsStoreService, ResultsWriterConsumer],
})
export class FindingsModule {}
