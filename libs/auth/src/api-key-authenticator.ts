import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { RATE_LIMITER, type RateLimiter } from '@vigil/counters';
import type { CredentialCheck, CredentialRefusal, CredentialVerifier } from '@vigil/platform';
import { apiKeyFromAuthorization } from './basic-auth';
import { KeyDirectoryService } from './key-directory.service';

/**
 * HTTP Basic authentication with the API key as user name (password ignored), then the per-key rate limit.
 * Missing, unknown or revoked key → 401; expired key → 403 unless the route lets expired keys in; over the limit →
 * 429 with the seconds to wait. The request gate calls it before the body is read; ApiKeyGuard where no gate ran.
 */
@Injectable()
export class ApiKeyAuthenticator implements CredentialVerifier {
  constructor(
    private readonly keys: KeyDirectoryService,
    @Inject(RATE_LIMITER) private readonly rateLimiter: RateLimiter,
  ) {}

  async verify(headers: IncomingHttpHeaders, options: { expiredKeyAllowed: boolean }): Promise<CredentialCheck> {
    const header = headers.authorization;
    const key = apiKeyFromAuthorization(Array.isArray(header) ? header[0] : header);
    if (!key) return refused(401, 'Missing API key: send it as the HTTP Basic user name');
    const lookup = this.keys.lookup(key);
    if (lookup.outcome === 'unknown') return refused(401, 'Unknown API key');
    if (lookup.outcome === 'revoked') return refused(401, 'This API key has been revoked');
    const { principal } = lookup;
    if (principal.expired && !options.expiredKeyAllowed) return refused(403, `This API key expired on ${principal.expiresAt}`);
    const decision = await this.rateLimiter.consume(principal.keyHash);
    if (!decision.allowed) {
      const message = `Rate limit exceeded for this API key; retry after ${decision.retryAfterSeconds} s`;
      return { ...refused(429, message), retryAfterSeconds: decision.retryAfterSeconds };
    }
    return { accepted: true, principal };
  }
}

function refused(status: CredentialRefusal['status'], message: string): CredentialRefusal {
  return { accepted: false, status, message };
}
