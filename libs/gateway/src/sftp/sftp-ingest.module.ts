import { Module } from '@nestjs/common';
import { OperatorAccessModule } from '@vigil/escalations';
import { TelemetryIntake } from '../telemetry-intake';
import { TelemetryIntakeModule } from '../telemetry-intake.module';
import { AdminSftpKeysController } from './http/admin-sftp-keys.controller';
import { SftpKeyRegistry } from './keys/sftp-key-registry.service';
import { SftpServerService } from './server/sftp-server.service';
import { SftpUploads } from './upload/sftp-uploads.service';

/**
 * SFTP ingest (an ingest-gateway feature): the operator API of SFTP keys, always served, and the SFTP endpoint,
 * listening only when `VIGIL_SFTP_PORT` is set. Uploads go through the gateway's {@link TelemetryIntake}.
 */
@Module({
  imports: [OperatorAccessModule, TelemetryIntakeModule],
  controllers: [AdminSftpKeysController],
  providers: [SftpKeyRegistry, SftpUploads, SftpServerService],
  exports: [SftpKeyRegistry, SftpServerService],
})
export class SftpIngestModule {}
