export * from './openapi-document';
export * from './openapi-types';
export { FINDINGS_MAX_AGE_PATTERN, ALERTS_MAX_AGE_PATTERN } from './parameters';
export { EVENT_SCHEMA_BY_TYPE } from './request-bodies';
