import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CredentialVerifier } from './credential-verifier';
import { replyWithMessage as refuse } from './message-reply';
import { credentialRuleFor, type Credential, type CredentialRule } from './route-credentials';
import { allowedMethods, pathOf } from './route-table';
import { scoringBacklog } from '../flow/scoring-backlog';

/** A refused body is retried soon: the backlog it waited for drains within seconds. */
const SHED_RETRY_AFTER_SECONDS = 1;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the request, set by the request gate once its credential passed (an API key's principal). */
    principal: unknown;
  }
}

/** Finds the verifier of a credential kind; undefined when no module of this process provides one. */
export type VerifierLookup = (credential: Exclude<Credential, 'none'>) => CredentialVerifier | undefined;

/**
 * The first thing every request meets, in Fastify's `onRequest` stage, i.e. after the headers and before a byte
 * of the body is read, decompressed or parsed:
 * 1. an unknown path is answered 404, a known path with a method it does not serve 405 with `Allow`;
 * 2. the route's credential (ROUTE_CREDENTIALS) is checked by its verifier: 401/403/429 with `{message}`, or the
 *    principal is attached to the request for the handlers (and the Nest guards, which then do not count it again);
 * 3. telemetry waits while scoring in this process is too far behind, and is refused with 429 if scoring has not
 *    made room in time (flow/scoring-backlog.ts).
 * Whatever body a refused request carries is then discarded unread (see unread-body.ts).
 */
export function registerRequestGate(fastify: FastifyInstance, verifierFor: VerifierLookup, rules?: readonly CredentialRule[]): void {
  const credentialsInUse = new Set<Credential>();
  fastify.decorateRequest('principal', null);

  fastify.addHook('onRoute', (route) => {
    const rule = credentialRuleFor(route.url, rules);
    if (rule === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} has no row in ROUTE_CREDENTIALS (libs/platform/src/http/route-credentials.ts)`);
    }
    credentialsInUse.add(rule.credential);
  });

  fastify.addHook('onReady', async () => {
    for (const credential of credentialsInUse) {
      if (credential !== 'none' && verifierFor(credential) === undefined) {
        throw new Error(`Routes need the ${credential} credential, but no module of this process provides its verifier`);
      }
    }
  });

  // A body let in after waiting hands the room on once answered, even when it was refused and never published.
  const letInAfterWaiting = new WeakSet<FastifyRequest>();
  fastify.addHook('onResponse', async (request) => {
    if (letInAfterWaiting.delete(request)) scoringBacklog.settled();
  });

  fastify.addHook('onRequest', async (request, reply) => {
    if (request.is404) return answerUnknownRoute(fastify, request, reply);
    const rule = credentialRuleFor(request.routeOptions.url ?? '', rules);
    if (rule === undefined || rule.credential === 'none') return;
    const verifier = verifierFor(rule.credential);
    if (verifier === undefined) return refuse(reply, 503, 'This service cannot check credentials for this route');
    const check = await verifier.verify(request.headers, { expiredKeyAllowed: rule.expiredKeyAllowed === true });
    if (!check.accepted) {
      if (check.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(check.retryAfterSeconds));
      return refuse(reply, check.status, check.message);
    }
    request.principal = check.principal ?? null;
    if (rule.shedWhenScoringBehind !== true) return;
    const admission = scoringBacklog.admit(() => request.raw.socket.destroyed);
    const admitted = await admission;
    if (!admitted) {
      void reply.header('Retry-After', String(SHED_RETRY_AFTER_SECONDS));
      return refuse(reply, 429, `Scoring is ${scoringBacklog.backlogEvents} events behind; retry after ${SHED_RETRY_AFTER_SECONDS} s`);
    }
    if (admission instanceof Promise) letInAfterWaiting.add(request);
  });
}

function answerUnknownRoute(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = pathOf(request.url);
  const allowed = allowedMethods(fastify, path);
  if (allowed.length === 0) return refuse(reply, 404, `No such endpoint: ${request.method} ${path}`);
  void reply.header('Allow', allowed.join(', '));
  return refuse(reply, 405, `Method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`);
}
