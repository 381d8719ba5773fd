export * from './gateway.module';
export * from './pack-batches';
export * from './endpoints';
export * from './idempotency';
