import type { JsonSchema } from './openapi-types';
import { schemaRef } from './refs';

/**
 * Telemetry event schemas (request side of POST /v1/events/{type}, and the `event` of an alert). They describe
 * the canonical spelling; the ingest path is more lenient than these schemas (see the request body text).
 */

/**
 * Every key of `rejected` in an upload's answer: the fixed reasons, and `invalid_<field>` / `missing_<field>`
 * with the field spelt as in the event schemas (`invalid_srcIP`). The ingest tests check that every reason the
 * server can produce matches it.
 */
export const REJECTION_REASON_PATTERN =
  '^(?:invalid_json|not_an_object|too_deep|too_many_fields|string_too_long|ts_out_of_range|(?:invalid|missing)_[a-z][A-Za-z0-9]*)$';

const eventHeaderProperties: Record<string, JsonSchema> = {
  ts: {
    type: 'string',
    format: 'date-time',
    description:
      'When the event happened (RFC 3339, or Unix epoch seconds, milli-, micro- or nanoseconds). Offsets and up to nine fractional digits are accepted; stored as UTC with milliseconds. Missing, empty or the Go zero time: the time of receipt. More than ten years before or after the time of receipt: the event is rejected (`ts_out_of_range`).',
    examples: ['2024-06-10T06:13:20.123Z'],
  },
  srcIP: { ...schemaRef('ipAddress'), description: 'Address of the host that originated the traffic.' },
  srcPort: { ...schemaRef('port'), description: 'Port on the originating host.' },
  srcHost: { type: 'string', description: 'Name of the originating host, when the sensor knows it.' },
  srcMac: { type: 'string', description: 'Hardware (MAC) address of the originating host.' },
  srcUser: { type: 'string', description: 'User logged in on the originating host.' },
  srcID: { type: 'string', description: 'Sensor-specific identifier of the originating host.' },
};

const counter = (description: string): JsonSchema => ({ type: 'integer', format: 'int64', minimum: 0, description });

function eventSchema(title: string, description: string, own: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    title,
    description,
    type: 'object',
    properties: { ...eventHeaderProperties, ...own },
    ...(required.length > 0 ? { required } : {}),
  };
}

export const telemetrySchemas: Record<string, JsonSchema> = {
  ipAddress: {
    type: 'string',
    description: 'An IPv4 or IPv6 address in its usual text form.',
    anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }],
    examples: ['10.14.1.39', '2001:db8::1'],
  },
  port: { type: 'integer', minimum: 0, maximum: 65535 },
  eventHeader: {
    title: 'Event header',
    description: 'Fields shared by every kind of telemetry event.',
    type: 'object',
    properties: eventHeaderProperties,
  },
  dnsEvent: eventSchema(
    'DNS event',
    'One DNS lookup seen on the network.',
    {
      query: {
        type: 'string',
        maxLength: 253,
        description: 'Name that was looked up; lower-cased and stripped of a trailing dot on ingest.',
        examples: ['www.example.com'],
      },
      qtype: {
        type: 'string',
        description: 'Record type asked for (A, AAAA, TXT, ...). Numeric codes of common types are translated.',
        examples: ['A'],
      },
    },
    ['query'],
  ),
  ipEvent: eventSchema('IP event', 'One network connection (flow) seen on the network.', {
    destIP: { ...schemaRef('ipAddress'), description: 'Address the connection went to.' },
    destPort: { ...schemaRef('port'), description: 'Port the connection went to.' },
    proto: { type: 'string', description: 'Transport protocol (tcp, udp, icmp, ...).', examples: ['tcp'] },
    bytesIn: counter('Bytes received by the originating host.'),
    bytesOut: counter('Bytes sent by the originating host.'),
    packetsIn: counter('Packets received by the originating host.'),
    packetsOut: counter('Packets sent by the originating host.'),
    app: { type: 'string', description: 'Application protocol, when the sensor identified one.' },
    action: { type: 'string', description: 'What the enforcing device did with the connection (for example allowed or denied).' },
    duration: { type: 'number', format: 'double', minimum: 0, description: 'How long the connection lasted, in seconds.' },
  }),
  httpEvent: eventSchema(
    'HTTP event',
    'One HTTP request seen by a proxy or sensor.',
    {
      url: {
        type: 'string',
        description: 'Requested URL. A URL without a scheme (`example.com/path`) is accepted.',
        examples: ['https://www.example.com/index.html'],
      },
      method: { type: 'string', description: 'HTTP request method.', examples: ['GET'] },
      status: { type: 'integer', format: 'int64', minimum: 0, description: 'HTTP status code of the response.' },
      app: { type: 'string', description: 'Application protocol, when the sensor identified one.' },
      action: { type: 'string', description: 'What the proxy did with the request (for example allowed or denied).' },
      bytesIn: counter('Bytes received by the client.'),
      bytesOut: counter('Bytes sent by the client.'),
      contentType: { type: 'string', description: 'Content type of the response.' },
      referrer: { type: 'string', description: 'Referring page, as sent by the client.' },
      userAgent: { type: 'string', description: 'User agent string of the client.' },
    },
    ['url'],
  ),
  tlsEvent: eventSchema('TLS event', 'One TLS handshake seen on the network.', {
    certHash: { type: 'string', description: 'Hash (fingerprint) of the server certificate.' },
    issuer: { type: 'string', description: 'Distinguished name of the certificate issuer.' },
    subject: { type: 'string', description: 'Distinguished name of the certificate subject.' },
    validFrom: {
      type: 'string',
      format: 'date-time',
      description: 'Start of the certificate validity. The Go zero time (year 1) is read as absent.',
    },
    validTo: { type: 'string', format: 'date-time', description: 'End of the certificate validity.' },
    destIP: { ...schemaRef('ipAddress'), description: 'Address of the TLS server.' },
    destPort: { ...schemaRef('port'), description: 'Port of the TLS server.' },
    ja3: { type: 'string', description: 'JA3 fingerprint of the client hello.' },
    ja3s: { type: 'string', description: 'JA3S fingerprint of the server hello.' },
  }),
  leaseEvent: eventSchema('DHCP lease event', 'One DHCP lease change; `srcIP` is the leased address.', {
    type: { type: 'string', description: 'Kind of lease change reported by the DHCP server.' },
    termination: { type: 'boolean', description: 'True when the lease ended.' },
    duration: {
      type: 'number',
      minimum: 0,
      description: 'Lease duration in seconds. Fractional values are accepted and kept.',
    },
  }),
  eventsResponseBody: {
    title: 'Telemetry upload result',
    description: 'Counts for one telemetry upload. Events that could not be used are tallied by reason.',
    type: 'object',
    required: ['received', 'accepted', 'rejected'],
    properties: {
      received: { type: 'integer', minimum: 0, description: 'JSON values found in the body.' },
      accepted: { type: 'integer', minimum: 0, description: 'Events that passed validation and were queued for scoring.' },
      rejected: {
        type: 'object',
        description: [
          'Events that were dropped, counted by reason. Empty when every event was accepted. The reasons:',
          '`invalid_json` (text that is not JSON), `not_an_object` (a JSON value that is not an object),',
          '`too_deep` (nested more than 32 levels), `too_many_fields` (more than 1000 values in all),',
          '`string_too_long` (a string or field name over 65536 characters), `ts_out_of_range` (`ts` more than ten',
          'years from the time of receipt), `missing_<field>` (a required field absent or empty) and `invalid_<field>`',
          '(a field whose value has the wrong type or cannot be read). `<field>` is spelt as in the event schema,',
          'for example `invalid_srcIP`, `invalid_destPort`, `missing_query`.',
        ].join(' '),
        propertyNames: { pattern: REJECTION_REASON_PATTERN },
        additionalProperties: { type: 'integer', minimum: 1 },
        examples: [{ invalid_srcIP: 2, missing_query: 1, too_deep: 1 }],
      },
    },
    additionalProperties: false,
  },
};
