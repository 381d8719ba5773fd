import { headerProperties, ipAddress, port, text, timestamp, type EventSchema } from './fragments';

export const tlsEventSchema = {
  $id: 'https://vigil.dev/schemas/events/tls.json',
  type: 'object',
  additionalProperties: false,
  required: [],
  properties: {
    ...headerProperties,
    certHash: text,
    issuer: text,
    subject: text,
    validFrom: timestamp,
    validTo: timestamp,
    destIP: ipAddress,
    destPort: port,
    ja3: text,
    ja3s: text,
  },
} as const satisfies EventSchema;
