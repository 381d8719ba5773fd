import { counter, headerProperties, text, type EventSchema } from './fragments';

export const httpEventSchema = {
  $id: 'https://vigil.dev/schemas/events/http.json',
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    ...headerProperties,
    url: text,
    method: text,
    status: { type: 'integer', minimum: 0, maximum: 999 },
    app: text,
    action: text,
    bytesIn: counter,
    bytesOut: counter,
    contentType: text,
    referrer: text,
    userAgent: text,
  },
} as const satisfies EventSchema;
