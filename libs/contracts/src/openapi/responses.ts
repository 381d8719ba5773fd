import type { ResponseObject } from './openapi-types';
import { headerRef, schemaRef } from './refs';

const jsonError = (description: string, headers?: ResponseObject['headers']): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: schemaRef('errorMessage') } },
});

/** Error responses shared by the operations; all carry an errorMessage body. */
export const componentResponses: Record<string, ResponseObject> = {
  BadRequest: jsonError('The request could not be used: a malformed parameter or a body that holds no JSON object at all.'),
  Unauthorized: jsonError('No credentials, or an API key Vigil does not know.'),
  Forbidden: jsonError('The API key is known but may not be used (expired or revoked); `message` says which.'),
  NotFound: jsonError(
    'The route is not served here: an unknown path, or, in a split deployment, an instance that does not host this operation.',
  ),
  MethodNotAllowed: jsonError('The path exists, but not for this method.', { Allow: headerRef('Allow') }),
  PayloadTooLarge: jsonError('The body is over the size limit of the operation (measured after decompression).'),
  UnsupportedMediaType: jsonError('The body uses a content type or content encoding the operation does not read.'),
  Conflict: jsonError('A request with the same `Idempotency-Key` is still being processed. Wait as long as `Retry-After` says, then send again.', {
    'Retry-After': headerRef('Retry-After'),
  }),
  UnprocessableContent: jsonError('The `Idempotency-Key` was already used for a different request (another body or event type).'),
  TooManyRequests: jsonError('The API key sent requests faster than its allowance. Wait as long as `Retry-After` says.', {
    'Retry-After': headerRef('Retry-After'),
  }),
  ServiceUnavailable: jsonError('A dependency (message bus or store) is unavailable or saturated. Try again later.', {
    'Retry-After': headerRef('RetryAfterHint'),
  }),
};
