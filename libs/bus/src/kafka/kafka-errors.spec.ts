import { KafkaJSConnectionError, KafkaJSError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { isTransientKafkaError } from './kafka-errors';

describe('isTransientKafkaError', () => {
  it('treats connection failures and retriable broker errors as transient, also once the retries ran out', () => {
    const connection = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    expect(isTransientKafkaError(connection)).toBe(true);
    expect(isTransientKafkaError(new KafkaJSNumberOfRetriesExceeded(connection, { retryCount: 3, retryTime: 900 }))).toBe(true);
    const notEnoughReplicas = new KafkaJSProtocolError(Object.assign(new Error('NOT_ENOUGH_REPLICAS'), { retriable: true }) as never);
    expect(isTransientKafkaError(new KafkaJSNumberOfRetriesExceeded(notEnoughReplicas, { retryCount: 3, retryTime: 900 }))).toBe(true);
  });

  it('treats non-retriable and foreign errors as permanent', () => {
    const tooLarge = new KafkaJSProtocolError(Object.assign(new Error('MESSAGE_TOO_LARGE'), { retriable: false }) as never);
    expect(isTransientKafkaError(tooLarge)).toBe(false);
    expect(isTransientKafkaError(new KafkaJSNumberOfRetriesExceeded(tooLarge, { retryCount: 0, retryTime: 0 }))).toBe(false);
    expect(isTransientKafkaError(new KafkaJSNonRetriableError('bad request'))).toBe(false);
    expect(isTransientKafkaError(new Error('retriable-looking but not from kafkajs'))).toBe(false);
    expect(isTransientKafkaError(Object.assign(new Error('x'), { retriable: true }))).toBe(false);
    expect(isTransientKafkaError(undefined)).toBe(false);
    expect(isTransientKafkaError(new KafkaJSError('generic', { retriable: true }))).toBe(true);
  });
});
