export * from './vigil-logger';
export * from './request-logging';
