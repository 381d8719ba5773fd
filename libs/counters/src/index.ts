export * from './counters';
export * from './memory/memory-rate-limiter';
export * from './memory/memory-distinct-counter';
export * from './idempotency-store';
export * from './memory/memory-idempotency-store';
export * from './counters.module';
export * from './redis';
