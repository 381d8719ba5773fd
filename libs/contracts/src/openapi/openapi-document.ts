import type { OpenApiDocument } from './openapi-types';
import { componentHeaders, componentParameters } from './parameters';
import { documentPaths } from './paths';
import { componentRequestBodies } from './request-bodies';
import { componentResponses } from './responses';
import { componentSchemas } from './schemas';

/** Hand-written OpenAPI 3.1 description of the whole Vigil HTTP API, served at GET /openapi.json. */
export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Vigil network telemetry API',
    version: '1.0.0',
    summary: 'Send network telemetry for scoring; fetch the findings and alerts it produces.',
    description: [
      'Sensors and log shippers POST DNS, IP, TLS, HTTP and DHCP lease events; Vigil scores them and publishes',
      'the results as OCSF Detection Findings (and, for older collectors, as alerts). Results are polled with an',
      'opaque `follow` bookmark. Every /v1 operation authenticates with HTTP Basic, the API key as the user name',
      '(the password is ignored), and is rate limited per key. Unknown query parameters and extra headers are',
      'ignored. Error bodies are JSON objects with a `message`.',
    ].join(' '),
    license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
  },
  jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
  servers: [{ url: '/', description: 'The Vigil instance serving this document.' }],
  security: [{ basicAuth: [] }],
  tags: [
    { name: 'telemetry', description: 'Event uploads.' },
    { name: 'results', description: 'Findings and (deprecated) alerts.' },
    { name: 'account', description: 'State of the calling API key.' },
    { name: 'inventory', description: 'Threat and flag dictionaries.' },
    { name: 'detections', description: 'Customer Sigma rules.' },
    { name: 'operations', description: 'Probes, metrics and this document; no credentials needed.' },
  ],
  paths: documentPaths,
  components: {
    schemas: componentSchemas,
    parameters: componentParameters,
    headers: componentHeaders,
    requestBodies: componentRequestBodies,
    responses: componentResponses,
    securitySchemes: {
      basicAuth: {
        type: 'http',
        scheme: 'basic',
        description: 'HTTP Basic with the API key as the user name. Any password (empty, `-`, ...) is accepted and ignored.',
      },
    },
  },
};
