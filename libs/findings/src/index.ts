export { InvalidQueryError, InvalidRecordError } from './errors';
export { parseMaxAge, DEFAULT_MAX_AGE_SECONDS, MAX_AGE_LIMIT_SECONDS, type ResultKind } from './max-age';
export { encodeBookmark, decodeBookmark, headBookmark, BOOKMARK_VERSION, type Bookmark } from './bookmark';
export { FINDINGS_DATABASE, FINDINGS_MIGRATIONS, findingsMigrations } from './migrations';
export { FINDINGS_TABLE, ALERTS_TABLE, type RecordTable, type StoredRecord } from './record-tables';
export {
  RecordRepository,
  DEFAULT_MAX_PAGE_BYTES,
  DEFAULT_VISIBILITY_DELAY_MS,
  MAX_PAGE_LIMIT,
  type InsertResult,
  type Page,
  type PageRequest,
  type RawPage,
  type PagingOptions,
  type RejectedRecord,
} from './record-repository';
export { FindingsRepository, AlertsRepository } from './repositories';
export { FindingsModule } from './findings.module';
export { writeBusBatch, type BatchWriteOutcome, type RecordSink } from './bus-batch-writer';
export { FindingsStoreService } from './findings-store.service';
