import type { JsonSchema } from './openapi-types';
import { alertSchemas } from './schemas-alerts';
import { findingSchemas } from './schemas-findings';
import { serviceSchemas } from './schemas-service';
import { telemetrySchemas } from './schemas-telemetry';

/** Every entry of `components.schemas`, by name. */
export const componentSchemas: Record<string, JsonSchema> = {
  ...telemetrySchemas,
  ...alertSchemas,
  ...findingSchemas,
  ...serviceSchemas,
};
