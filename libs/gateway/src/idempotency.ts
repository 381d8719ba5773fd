import { createHash } from 'node:crypto';
import {
  BadRequestException,
  CallHandler,
  ConflictException,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
  NestInterceptor,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, mergeMap, of, throwError, catchError, type Observable } from 'rxjs';
import type { Principal } from '@vigil/auth';
import { IDEMPOTENCY_STORE, IdempotencyStoreUnavailableError, type IdempotencyStore } from '@vigil/counters';

/** How long an answered key is replayed. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;
/** How long a claim of a request still being processed blocks its key (a gateway that died mid-request). */
export const IDEMPOTENCY_PENDING_SECONDS = 60;
/** Retry-After of a 409 for a key whose first request is still being processed. */
export const IDEMPOTENCY_IN_PROGRESS_RETRY_SECONDS = 1;
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST /v1/events/{type}: a request that repeats a key already answered for the same
 * workspace within {@link IDEMPOTENCY_RETENTION_SECONDS} gets the stored answer again (with
 * `Idempotent-Replayed: true`) and publishes nothing, so a client that lost an answer (crash, timeout) can
 * resend its batch without duplicating it. Only successful answers are stored; a failed request frees its key.
 *
 * - The key is 1–255 visible ASCII characters (a structured-field string in double quotes is accepted): else 400.
 * - The same key with a different body or event type: 422 (the stored answer is not for this batch).
 * - The same key while its first request is still being processed: 409 with Retry-After.
 * - The key store unreachable (Redis down): 503 with Retry-After; requests without a key are unaffected.
 *
 * Runs after the API-key guard (workspace known, rate limit counted) and around the ingest handler.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(@Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { principal?: Principal }>();
    const key = idempotencyKeyOf(request.headers['idempotency-key']);
    if (key === undefined || request.principal === undefined) return next.handle();

    const type = String((request.params as { type?: unknown } | undefined)?.type ?? '');
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const fingerprint = createHash('sha256').update(type).update('\n').update(body).digest('base64url');
    const storeKey = `${request.principal.workspaceId}:${key}`;

    const claim = await this.guard(() => this.store.claim(storeKey, fingerprint, IDEMPOTENCY_PENDING_SECONDS));
    if (claim.kind !== 'claimed' && claim.fingerprint !== fingerprint) {
      throw new UnprocessableEntityException({ message: 'This Idempotency-Key was already used for a different request (another body or event type)' });
    }
    if (claim.kind === 'in_progress') {
      throw Object.assign(new ConflictException({ message: 'A request with this Idempotency-Key is still being processed; retry later' }), {
        retryAfterSeconds: IDEMPOTENCY_IN_PROGRESS_RETRY_SECONDS,
      });
    }
    if (claim.kind === 'answered') {
      void http.getResponse<FastifyReply>().header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return of(JSON.parse(claim.response) as unknown);
    }
    return next.handle().pipe(
      mergeMap(async (answer: unknown) => {
        // The events are durable already: failing to remember the key must not turn the 200 into an error.
        await this.store.complete(storeKey, fingerprint, JSON.stringify(answer), IDEMPOTENCY_RETENTION_SECONDS).catch((error: unknown) => {
          this.logger.warn(`answer for an Idempotency-Key not stored (a retry would publish again): ${String(error)}`);
        });
        return answer;
      }),
      catchError((error: unknown) =>
        from(this.store.release(storeKey, fingerprint).catch(() => undefined)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof IdempotencyStoreUnavailableError)) throw error;
      this.logger.warn(error.message);
      throw Object.assign(new ServiceUnavailableException({ message: 'Idempotency keys cannot be checked right now; retry later' }), { retryAfterSeconds: 5 });
    }
  }
}

/** The header's key, undefined when absent; a malformed key is a 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw new BadRequestException({ message: 'Send one Idempotency-Key header' });
  const value = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
  if (!KEY_PATTERN.test(value)) throw new BadRequestException({ message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' });
  return value;
}
