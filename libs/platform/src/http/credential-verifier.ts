import type { IncomingHttpHeaders } from 'node:http';
import type { Credential } from './route-credentials';

/** Why a request is refused: the status, the `{message}` and, for 429, when to come back. */
export interface CredentialRefusal {
  accepted: false;
  status: 401 | 403 | 429;
  message: string;
  retryAfterSeconds?: number;
}

/** A credential that passed; `principal` (if any) is attached to the request as `request.principal`. */
export interface CredentialAcceptance {
  accepted: true;
  principal?: unknown;
}

export type CredentialCheck = CredentialAcceptance | CredentialRefusal;

/**
 * Checks one kind of credential from the request headers alone. Called once per request, before its body is
 * read; whatever it counts (the per-key rate limit) it counts then.
 */
export interface CredentialVerifier {
  verify(headers: IncomingHttpHeaders, options: { expiredKeyAllowed: boolean }): Promise<CredentialCheck>;
}

/** Nest tokens under which feature modules provide the verifier of each credential (resolved by the request gate). */
export const API_KEY_VERIFIER = Symbol('API_KEY_VERIFIER');
export const OPERATOR_TOKEN_VERIFIER = Symbol('OPERATOR_TOKEN_VERIFIER');

export const VERIFIER_TOKENS: Readonly<Record<Exclude<Credential, 'none'>, symbol>> = {
  'api-key': API_KEY_VERIFIER,
  'operator-token': OPERATOR_TOKEN_VERIFIER,
};
