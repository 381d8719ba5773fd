import { Module } from '@nestjs/common';
import { DeliveryService } from './delivery/delivery.service';
import { DestinationRegistry } from './destinations/destination-registry.service';
import { AdminEscalationsController } from './http/admin-escalations.controller';
import { OperatorAccessModule } from './operator/operator-access.module';

/**
 * Escalations (a findings-api feature): findings or alerts pushed to SIEM destinations by webhook, syslog or
 * Kafka, configured per workspace through the operator API.
 */
@Module({
  imports: [OperatorAccessModule],
  controllers: [AdminEscalationsController],
  providers: [DestinationRegistry, DeliveryService],
  exports: [DestinationRegistry, DeliveryService],
})
export class EscalationsModule {}
