export * from './rules.module';
export * from './inventory.service';
export { CustomerRulesService, type UploadOutcome } from './customer-rules.service';
export { DETECTIONS_BODY_LIMIT } from './detections-body-limit';
export { RULE_ZIP_LIMITS, readRuleZip, ZipRejectedError, type RuleZipContents, type ZipLimits } from './upload/zip-reader';
export { isPlaceholdersFile, parsePlaceholdersFile, PLACEHOLDER_LIMITS, PLACEHOLDERS_FILE_NAMES, type PlaceholdersParseResult } from './upload/placeholders-file';
export { parseUploadOptions, type ImportMode, type UploadOptions } from './upload/upload-params';
/** Test and tooling helper: builds zip archives (also malformed ones). */
export { writeZip, type ZipEntryInput } from './testing/zip-writer';
export { UploadBudgetError, UploadValidationBusyError } from './upload/upload-validator';
