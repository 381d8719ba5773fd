import { Module } from '@nestjs/common';
import { API_KEY_VERIFIER } from '@vigil/platform';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyGuard } from './api-key.guard';
import { KeyDirectoryService } from './key-directory.service';

/**
 * Import in any feature module whose routes use @UseGuards(ApiKeyGuard). Provides the API-key verifier the HTTP
 * server's request gate uses before any body is read.
 */
@Module({
  providers: [KeyDirectoryService, ApiKeyAuthenticator, ApiKeyGuard, { provide: API_KEY_VERIFIER, useExisting: ApiKeyAuthenticator }],
  exports: [KeyDirectoryService, ApiKeyAuthenticator, ApiKeyGuard, API_KEY_VERIFIER],
})
export class AuthModule {}
