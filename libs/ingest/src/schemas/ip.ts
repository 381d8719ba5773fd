import { counter, headerProperties, ipAddress, nonNegativeNumber, port, text, type EventSchema } from './fragments';

export const ipEventSchema = {
  $id: 'https://vigil.dev/schemas/events/ip.json',
  type: 'object',
  additionalProperties: false,
  required: [],
  properties: {
    ...headerProperties,
    destIP: ipAddress,
    destPort: port,
    proto: text,
    bytesIn: counter,
    bytesOut: counter,
    packetsIn: counter,
    packetsOut: counter,
    app: text,
    action: text,
    duration: nonNegativeNumber,
  },
} as const satisfies EventSchema;
