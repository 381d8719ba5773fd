/** Classifies kafkajs failures: which ones mean "the cluster cannot take this now" (backpressure). */

interface KafkaJsErrorShape {
  name?: string;
  retriable?: boolean;
  cause?: unknown;
}

/**
 * True when `error` is a kafkajs error that retrying later can cure: a retriable broker error
 * (NOT_ENOUGH_REPLICAS, leader movement, timeouts), a connection failure, or the retry budget running out
 * on one of those (`KafkaJSNumberOfRetriesExceeded` is itself non-retriable but carries the retriable cause).
 */
export function isTransientKafkaError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const shape = current as KafkaJsErrorShape;
    if (!shape.name?.startsWith('KafkaJS')) return false;
    if (shape.retriable === true) return true;
    current = shape.cause;
  }
  return false;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
