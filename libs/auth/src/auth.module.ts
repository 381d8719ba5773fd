import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { KeyDirectoryService } from './key-directory.service';

/** Import in any feature module whose routes use @UseGuards(ApiKeyGuard). */
@Module({
  providers: [KeyDirectoryService, ApiKeyGuard],
  exports: [KeyDirectoryService, ApiKeyGuard],
})
export class AuthModule {}
