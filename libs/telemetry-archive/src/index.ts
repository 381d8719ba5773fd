export * from './telemetry-archive.module';
export * from './migrations';
