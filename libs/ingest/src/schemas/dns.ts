import { headerProperties, text, type EventSchema } from './fragments';

export const dnsEventSchema = {
  $id: 'https://vigil.dev/schemas/events/dns.json',
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: { ...headerProperties, query: text, qtype: text },
} as const satisfies EventSchema;
