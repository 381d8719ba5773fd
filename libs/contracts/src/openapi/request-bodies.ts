import type { RequestBodyObject } from './openapi-types';
import { schemaRef } from './refs';
import { TELEMETRY_TYPES, type TelemetryType } from '../events';

/** Event schema name for each telemetry type. */
export const EVENT_SCHEMA_BY_TYPE: Record<TelemetryType, string> = {
  dns: 'dnsEvent',
  ip: 'ipEvent',
  tls: 'tlsEvent',
  http: 'httpEvent',
  lease: 'leaseEvent',
};

const EXAMPLE_EVENTS: Record<TelemetryType, object[]> = {
  dns: [
    { ts: '2024-06-10T06:13:20Z', srcIP: '10.14.1.39', srcPort: 53211, srcHost: 'ws-042', query: 'www.example.com', qtype: 'A' },
    { ts: '2024-06-10T06:13:21.5Z', srcIP: '10.14.1.39', query: 'api.example.org', qtype: 'AAAA' },
  ],
  ip: [
    {
      ts: '2024-06-10T06:13:20Z', srcIP: '10.14.1.39', srcPort: 50122, destIP: '203.0.113.7', destPort: 443,
      proto: 'tcp', bytesIn: 5120, bytesOut: 830, packetsIn: 9, packetsOut: 7, app: 'https', action: 'allowed', duration: 1.25,
    },
  ],
  tls: [
    {
      ts: '2024-06-10T06:13:20Z', srcIP: '10.14.1.39', destIP: '203.0.113.7', destPort: 443,
      issuer: 'CN=Example CA,O=Example,C=US', subject: 'CN=www.example.com', ja3: '724dedf93fb5a3636a0f1ee8fcec8801',
    },
  ],
  http: [
    {
      ts: '2024-06-10T06:13:20Z', srcIP: '10.14.1.39', url: 'https://www.example.com/index.html', method: 'GET',
      status: 200, contentType: 'text/html', userAgent: 'Mozilla/5.0',
    },
  ],
  lease: [{ ts: '2024-06-10T06:13:20Z', srcIP: '10.14.1.39', srcMac: '00:11:22:33:44:55', srcHost: 'ws-042', type: 'assign', duration: 86400 }],
};

function eventsRequestBody(type: TelemetryType): RequestBodyObject {
  const event = schemaRef(EVENT_SCHEMA_BY_TYPE[type]);
  const examples = EXAMPLE_EVENTS[type];
  return {
    required: false,
    description: [
      `A batch of ${type} events: JSON objects one after another, usually one per line, with no enclosing array`,
      '(a JSON array of objects is read too). There is no limit on the number of events, only on the decompressed',
      'size (10 MiB). Field names match case-insensitively (`srcIp` is read as `srcIP`); `null`, empty strings,',
      'zeros and `false` count as absent (traffic counters keep 0); unknown fields are dropped. Integer and number',
      'fields also take digit strings (`"443"`), booleans `"true"`/`"false"`. A string field takes only a string —',
      'a number there makes the event invalid — except `qtype` and `proto`, whose numbers (`16`, `6`) are named.',
      'Each event must stay within these bounds, unknown fields included: nesting of at most 32 levels (the event',
      'is level 1), at most 1000 values in all (members of the event and of nested objects, elements of nested',
      'arrays), strings and field names of at most 65536 characters, and a `ts` at most ten years before or after',
      'the time of receipt. An event that cannot be used is counted under `rejected` in the answer instead of',
      'failing the request; the rest of the batch is kept. Only a body that holds no JSON object at all is a 400.',
    ].join(' '),
    content: {
      'application/json': {
        schema: { anyOf: [event, { type: 'array', items: event }] },
        examples: { oneEvent: { summary: 'A single event', value: examples[0] } },
      },
      'application/x-ndjson': {
        schema: event,
        examples: {
          batch: { summary: 'Newline-delimited events', value: examples.map((e) => JSON.stringify(e) + '\n').join('') },
        },
      },
    },
  };
}

export const componentRequestBodies: Record<string, RequestBodyObject> = {
  ...Object.fromEntries(TELEMETRY_TYPES.map((type) => [`${type}Events`, eventsRequestBody(type)])),
  ruleArchive: {
    required: true,
    description:
      'A zip archive of Sigma rules; files ending in `.yml` or `.yaml` are read, others ignored (and listed in `ignored`). Limits: 5000 files, 1 MB per rule file, 50 MB decompressed in total. A reserved `placeholders.yml` at the root maps `expand` placeholder names to lists of values for the workspace.',
    content: {
      'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } },
    },
  },
};
