export * from './openapi-document';
export * from './openapi-types';
export * from './max-age';
export { REJECTION_REASON_PATTERN } from './schemas-telemetry';
export { EVENT_SCHEMA_BY_TYPE } from './request-bodies';
