/**
 * JSON Schema building blocks for telemetry events (draft 2020-12, compiled by ajv in ../validate.ts).
 * The schemas describe an event after its field names were made canonical: they are the single source of
 * truth for which fields each event type has and what type each field is.
 */

export const text = { type: 'string' } as const;
/** An IPv4 or IPv6 address, checked with node:net `isIP` (format registered in ../validate.ts). */
export const ipAddress = { type: 'string', format: 'ip' } as const;
export const port = { type: 'integer', minimum: 0, maximum: 65535 } as const;
/** int64 on the wire; JSON numbers are exact up to 2^53 - 1. */
export const counter = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
export const nonNegativeNumber = { type: 'number', minimum: 0 } as const;
export const flag = { type: 'boolean' } as const;
/** RFC 3339 string or epoch number; parsed and normalised to UTC ISO by ../timestamps.ts. */
export const timestamp = { type: ['string', 'number'] } as const;

export const headerProperties = {
  ts: timestamp,
  srcIP: ipAddress,
  srcPort: port,
  srcHost: text,
  srcMac: text,
  srcUser: text,
  srcID: text,
} as const;

export interface EventSchema {
  $id: string;
  type: 'object';
  additionalProperties: false;
  required: readonly string[];
  properties: Readonly<Record<string, FieldSchema>>;
}

export interface FieldSchema {
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | readonly ['string', 'number'];
  readonly format?: 'ip';
  readonly minimum?: number;
  readonly maximum?: number;
}
