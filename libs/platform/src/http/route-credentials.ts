/** What a caller must present: nothing, an API key (HTTP Basic user name), or the operator's bearer token. */
export type Credential = 'none' | 'api-key' | 'operator-token';

export interface CredentialRule {
  /** A route as registered (`/v1/events/:type`), or a prefix ending in `/*` that covers every route below it. */
  route: string;
  credential: Credential;
  /** API keys only: an expired key is still let in (clients call account status to learn why they are refused). */
  expiredKeyAllowed?: boolean;
  /** Refused with 429 while this process's scoring backlog is over its bound (see flow/scoring-backlog.ts). */
  shedWhenScoringBehind?: boolean;
}

/**
 * Who may call what. The first row that covers a route wins. The request gate checks it before any body is read,
 * and the server refuses to start with a route that no row covers.
 */
export const ROUTE_CREDENTIALS: readonly CredentialRule[] = [
  { route: '/healthz', credential: 'none' },
  { route: '/readyz', credential: 'none' },
  { route: '/metrics', credential: 'none' },
  { route: '/openapi.json', credential: 'none' },
  { route: '/console', credential: 'none' },
  { route: '/console/*', credential: 'none' },
  { route: '/v1/account/status', credential: 'api-key', expiredKeyAllowed: true },
  { route: '/v1/events/:type', credential: 'api-key', shedWhenScoringBehind: true },
  { route: '/v1/*', credential: 'api-key' },
  { route: '/admin/*', credential: 'operator-token' },
];

function covers(rule: CredentialRule, route: string): boolean {
  return rule.route.endsWith('/*') ? route.startsWith(rule.route.slice(0, -1)) : route === rule.route;
}

/** The rule for a registered route (its pattern, not a concrete URL); undefined when no row covers it. */
export function credentialRuleFor(route: string, rules: readonly CredentialRule[] = ROUTE_CREDENTIALS): CredentialRule | undefined {
  return rules.find((rule) => covers(rule, route));
}
