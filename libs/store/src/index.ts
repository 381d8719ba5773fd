export * from './store';
export * from './errors';
export { assertDatabaseName } from './identifiers';
export { runMigrations, type MigrationReport } from './run-migrations';
export { ChdbStoreFactory, DEFAULT_ENGINE_CONNECTIONS, type EngineMemory } from './chdb-store-factory';
export { HttpStoreFactory, buildHttpClientConfig, type HttpStoreConfig, type HttpClientConfig } from './http-store-factory';
export { createStoreFactory, type StoreConfig } from './create-store-factory';
export { CoalescingInserter } from './coalescing-inserter';
export { sqlInteger, sqlString, sqlStringArray } from './sql-literals';
