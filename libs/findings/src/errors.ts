/** A query parameter of GET /v1/findings or GET /v1/alerts that cannot be served (mapped to HTTP 400). */
export class InvalidQueryError extends Error {
  override readonly name = 'InvalidQueryError';
}

/** A finding or alert record that cannot be stored as it is (sent to the dead-letter topic, not retried). */
export class InvalidRecordError extends Error {
  override readonly name = 'InvalidRecordError';
}
