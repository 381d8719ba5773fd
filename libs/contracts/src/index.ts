export * from './events';
export * from './topics';
export * from './telemetry-batch';
export * from './account';
export * from './detections';
export * from './results';
export * from './openapi';
export * from './rules';
