import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@vigil/auth';
import { DISTINCT_COUNTER, endpointsSeenScope, type DistinctCounter } from '@vigil/counters';

export interface StatusMessage {
  level: 1 | 2 | 3;
  body: string;
}

export interface AccountStatus {
  today: string;
  registered: boolean;
  expired: boolean;
  expirationDate?: string;
  endpointsSeenToday: number;
  messages: StatusMessage[];
}

const EXPIRY_WARNING_DAYS = 14;

/** Builds GET /v1/account/status for a principal. */
@Injectable()
export class AccountStatusService {
  constructor(@Inject(DISTINCT_COUNTER) private readonly endpoints: DistinctCounter) {}

  async statusOf(principal: Principal, now = new Date()): Promise<AccountStatus> {
    const messages: StatusMessage[] = [];
    if (!principal.registered) {
      messages.push({
        level: 2,
        body: 'This API key is not activated yet: telemetry is accepted, but alerts and findings are withheld until an operator activates the key.',
      });
    }
    if (principal.expired) {
      messages.push({ level: 3, body: `This API key expired on ${principal.expiresAt}; data endpoints refuse it. Ask an operator for a new key.` });
    } else if (principal.expiresAt && Date.parse(principal.expiresAt) - now.getTime() < EXPIRY_WARNING_DAYS * 86400_000) {
      messages.push({ level: 2, body: `This API key expires on ${principal.expiresAt}.` });
    }
    return {
      today: now.toISOString(),
      registered: principal.registered,
      expired: principal.expired,
      ...(principal.expiresAt ? { expirationDate: principal.expiresAt } : {}),
      endpointsSeenToday: await this.endpoints.count(endpointsSeenScope(principal.workspaceId, now)),
      messages,
    };
  }
}
