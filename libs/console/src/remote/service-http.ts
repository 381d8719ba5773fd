import { HttpException, HttpStatus } from '@nestjs/common';

export interface ServiceResponse {
  status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}

/** How long the console waits for another service before answering 504. */
const CALL_TIMEOUT_MS = 30_000;

/**
 * One HTTP call from the console to another Vigil service of a split deployment. A network failure or a timeout
 * is the console's 502/504 with `{message}` naming the service; any HTTP answer is returned as it came.
 */
export async function callService(
  service: string,
  baseUrl: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<ServiceResponse> {
  let response: Response;
  try {
    response = await fetch(baseUrl + path, {
      method,
      headers: { accept: 'application/json', ...init.headers },
      body: init.body,
      redirect: 'error',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new HttpException(
      { message: timedOut ? `The ${service} service did not answer within ${CALL_TIMEOUT_MS / 1000} s` : `The ${service} service at ${baseUrl} cannot be reached` },
      timedOut ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY,
    );
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text for the message */
  }
  return { status: response.status, body };
}

/** The `message` of an answer body, or a short excerpt of it. */
export function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') return (body as { message: string }).message;
  return typeof body === 'string' ? body.slice(0, 200) : 'no message';
}

/** Answers that are the caller's own matter and keep their status through the console. */
const CALLER_STATUSES = [400, 404, 409, 429];

/**
 * An answer the console cannot use as it is: the caller's own mistakes (400/404/409/429, plus `alsoKept`) keep
 * their status; anything else — a refused operator token, a server error of the other service — is a 502.
 */
export function unexpectedAnswer(service: string, answer: ServiceResponse, alsoKept: number[] = []): HttpException {
  if (CALLER_STATUSES.includes(answer.status) || alsoKept.includes(answer.status)) return new HttpException({ message: messageOf(answer.body) }, answer.status);
  return new HttpException({ message: `The ${service} service answered ${answer.status}: ${messageOf(answer.body)}` }, HttpStatus.BAD_GATEWAY);
}
