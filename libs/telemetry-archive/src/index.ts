export * from './telemetry-archive.module';
export * from './migrations';
export * from './search/telemetry-search.module';
export * from './search/ingest-rate';
