import type {
  OperationObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  SecurityRequirementObject,
} from './openapi-types';
import { headerRef, parameterRef, requestBodyRef, responseRef, schemaRef } from './refs';
import { TELEMETRY_TYPES, type TelemetryType } from '../events';

type Responses = Record<string, ResponseObject | ReferenceObject>;

const json = (schemaName: string, description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: schemaRef(schemaName) } },
});

/** Errors every authenticated /v1 operation can answer with. */
const commonErrors: Responses = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '404': responseRef('NotFound'),
  '405': responseRef('MethodNotAllowed'),
  '429': responseRef('TooManyRequests'),
  '503': responseRef('ServiceUnavailable'),
};

/** Extra errors of operations that take a body. */
const bodyErrors: Responses = {
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
};

const TELEMETRY_LABEL: Record<TelemetryType, string> = {
  dns: 'DNS',
  ip: 'IP connection',
  tls: 'TLS handshake',
  http: 'HTTP request',
  lease: 'DHCP lease',
};

function telemetryOperation(type: TelemetryType): OperationObject {
  return {
    operationId: `send${type[0].toUpperCase()}${type.slice(1)}Events`,
    summary: `Send ${TELEMETRY_LABEL[type]} events`,
    description: `Queues a batch of ${TELEMETRY_LABEL[type]} events for scoring and reports how many were usable.`,
    tags: ['telemetry'],
    parameters: [parameterRef('contentEncoding'), parameterRef('idempotencyKey')],
    requestBody: requestBodyRef(`${type}Events`),
    responses: {
      '200': {
        ...json('eventsResponseBody', 'The batch was read; the counts say how many events were kept.'),
        headers: { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
      },
      ...commonErrors,
      ...bodyErrors,
      '409': responseRef('Conflict'),
      '422': responseRef('UnprocessableContent'),
    },
  };
}

const streamHeaders = {
  'X-Stream-Follow': headerRef('X-Stream-Follow'),
  'X-Stream-More': headerRef('X-Stream-More'),
};

const findingsOperation: OperationObject = {
  operationId: 'getFindings',
  summary: 'Fetch findings',
  description: [
    'Returns the next page of findings after `follow`. Keep calling with the returned bookmark: straight away while',
    '`more` is true, after a pause once it is false. The bookmark and the `more` flag are also sent as the',
    '`X-Stream-Follow` and `X-Stream-More` headers, whichever representation is asked for. Ask for',
    '`application/x-ndjson` in `Accept` to get one finding per line instead of a JSON page.',
  ].join(' '),
  tags: ['results'],
  parameters: [
    parameterRef('follow'),
    parameterRef('findingsSchema'),
    parameterRef('findingsFormat'),
    parameterRef('findingsMaxAge'),
    parameterRef('minSeverity'),
  ],
  responses: {
    '200': {
      description: 'A page of findings (possibly empty).',
      headers: streamHeaders,
      content: {
        'application/json': {
          schema: {
            description: '`records` layout normally; `findings` layout when the request used `format`.',
            anyOf: [schemaRef('findings'), schemaRef('legacyFindings')],
          },
        },
        'application/x-ndjson': {
          schema: { ...schemaRef('finding'), description: 'Each line of the body is one finding.' },
        },
      },
    },
    ...commonErrors,
  },
};

const alertsOperation: OperationObject = {
  operationId: 'getAlerts',
  summary: 'Fetch alerts (deprecated)',
  description:
    'Returns the next page of alerts after `follow`, with the definitions of every threat they mention. Paging works as for findings, the `X-Stream-*` headers included. Use findings instead: alerts carry less context and will be retired.',
  tags: ['results'],
  deprecated: true,
  parameters: [parameterRef('follow'), parameterRef('alertsMaxAge'), parameterRef('minSeverity'), parameterRef('threats')],
  responses: {
    '200': { ...json('alerts', 'A page of alerts (possibly empty).'), headers: streamHeaders },
    ...commonErrors,
  },
};

const v1Paths: Record<string, PathItemObject> = {
  '/v1/account/status': {
    get: {
      operationId: 'getAccountStatus',
      summary: 'Read the account status',
      description:
        'Tells whether the API key is activated and current, how many hosts it has reported today, and any messages to show to its users. Answers for keys that are not activated yet.',
      tags: ['account'],
      responses: { '200': json('accountStatus', 'Status of the calling key.'), ...commonErrors },
    },
  },
  '/v1/detections': {
    get: {
      operationId: 'listDetections',
      summary: 'List customer Sigma rules',
      description: "Lists the calling workspace's stored customer Sigma rules (a Vigil extension of the API).",
      tags: ['detections'],
      responses: { '200': json('customerRules', 'The stored rules.'), ...commonErrors },
    },
    post: {
      operationId: 'uploadDetections',
      summary: 'Upload Sigma rules',
      description: 'Adds customer Sigma rules from a zip archive, or with `dry_run` only checks them.',
      tags: ['detections'],
      parameters: [parameterRef('importMode'), parameterRef('dryRun')],
      requestBody: requestBodyRef('ruleArchive'),
      responses: {
        '200': json('detectionsUpload', 'Every rule in the archive was accepted.'),
        ...commonErrors,
        '400': json(
          'detectionsBadRequest',
          'The archive is malformed (nothing stored) or some rules are invalid (the valid ones are stored unless `dry_run`). Entries that are not `.yml`/`.yaml` files are ignored and listed in `ignored`.',
        ),
        ...bodyErrors,
      },
    },
  },
  '/v1/findings': { get: findingsOperation },
  '/v1/alerts': { get: alertsOperation },
  ...Object.fromEntries(TELEMETRY_TYPES.map((type) => [`/v1/events/${type}`, { post: telemetryOperation(type) }])),
  '/v1/ae/inventory/threats': {
    get: {
      operationId: 'getThreatInventory',
      summary: 'Read the threat dictionary',
      description: 'Every threat Vigil can raise, with its current title and severity.',
      tags: ['inventory'],
      responses: { '200': json('threatsInventory', 'The whole threat dictionary.'), ...commonErrors },
    },
  },
  '/v1/ae/inventory/flags': {
    get: {
      operationId: 'getFlagInventory',
      summary: 'Read the flag dictionary',
      description: 'Every flag that can appear in alert context, with its meaning.',
      tags: ['inventory'],
      responses: { '200': json('flagsInventory', 'The whole flag dictionary.'), ...commonErrors },
    },
  },
};

/** Probes and the document itself are open, so that orchestrators and tools can reach them without a key. */
const noAuth: SecurityRequirementObject[] = [];

const operationalPaths: Record<string, PathItemObject> = {
  '/healthz': {
    get: {
      operationId: 'getLiveness',
      summary: 'Liveness probe',
      description: 'Answers 200 as long as the process can serve HTTP; dependencies are not checked.',
      tags: ['operations'],
      security: noAuth,
      responses: { '200': json('probeStatus', 'The process is alive.') },
    },
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      summary: 'Readiness probe',
      description: 'Answers 200 once every component of this instance has started and its dependencies are usable, else 503.',
      tags: ['operations'],
      security: noAuth,
      responses: {
        '200': json('probeStatus', 'Ready to take traffic.'),
        '503': json('errorMessage', 'Not ready yet; `message` names the components still starting or failing.'),
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description: 'Process and service metrics in the Prometheus text exposition format.',
      tags: ['operations'],
      security: noAuth,
      responses: {
        '200': {
          description: 'Current metric values.',
          content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This API description',
      description: 'The OpenAPI 3.1 document describing this API.',
      tags: ['operations'],
      security: noAuth,
      responses: {
        '200': { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  },
};

export const documentPaths: Record<string, PathItemObject> = { ...v1Paths, ...operationalPaths };
