import { flag, headerProperties, nonNegativeNumber, text, type EventSchema } from './fragments';

/** `duration` is int64 in the published schema, but clients send fractions (the sample payload does). */
export const leaseEventSchema = {
  $id: 'https://vigil.dev/schemas/events/lease.json',
  type: 'object',
  additionalProperties: false,
  required: [],
  properties: { ...headerProperties, type: text, termination: flag, duration: nonNegativeNumber },
} as const satisfies EventSchema;
