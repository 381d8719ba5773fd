export * from './infra/platform.module';
export * from './http/create-http-app';
export * from './http/api-exception.filter';
export * from './ops/readiness';
export * from './ops/metrics';
export * from './bootstrap';
