import type { TelemetryType } from '@vigil/contracts';
import { dnsEventSchema } from './dns';
import type { EventSchema } from './fragments';
import { httpEventSchema } from './http';
import { ipEventSchema } from './ip';
import { leaseEventSchema } from './lease';
import { tlsEventSchema } from './tls';

export { dnsEventSchema, httpEventSchema, ipEventSchema, leaseEventSchema, tlsEventSchema };
export type { EventSchema, FieldSchema } from './fragments';

export const EVENT_SCHEMAS: Readonly<Record<TelemetryType, EventSchema>> = {
  dns: dnsEventSchema,
  ip: ipEventSchema,
  tls: tlsEventSchema,
  http: httpEventSchema,
  lease: leaseEventSchema,
};
