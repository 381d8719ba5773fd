import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from './openapi-document';
import { HTTP_METHODS, type JsonSchema } from './openapi-types';
import { ALERTS_MAX_AGE_PATTERN, FINDINGS_MAX_AGE_PATTERN } from './max-age';
import { alertSchemas } from './schemas-alerts';
import { findingSchemas } from './schemas-findings';
import { serviceSchemas } from './schemas-service';
import { telemetrySchemas } from './schemas-telemetry';

/** The operations of the telemetry API spec, plus Vigil's operational endpoints. */
const EXPECTED_OPERATIONS: [path: string, method: string][] = [
  ['/v1/account/status', 'get'],
  ['/v1/detections', 'get'],
  ['/v1/detections', 'post'],
  ['/v1/findings', 'get'],
  ['/v1/alerts', 'get'],
  ['/v1/events/dns', 'post'],
  ['/v1/events/ip', 'post'],
  ['/v1/events/tls', 'post'],
  ['/v1/events/http', 'post'],
  ['/v1/events/lease', 'post'],
  ['/v1/ae/inventory/threats', 'get'],
  ['/v1/ae/inventory/flags', 'get'],
  ['/healthz', 'get'],
  ['/readyz', 'get'],
  ['/metrics', 'get'],
  ['/openapi.json', 'get'],
];

/** The parts of the OpenAPI 3.1 structure that matter to Vigil's clients and tools. */
const openApiStructureSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { const: '3.1.0' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
    },
    security: { type: 'array', items: { $ref: '#/$defs/securityRequirement' } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: { $ref: '#/$defs/pathItem' },
    },
    components: {
      type: 'object',
      required: ['schemas', 'securitySchemes'],
      properties: {
        schemas: { type: 'object', additionalProperties: { type: ['object', 'boolean'] } },
        parameters: { type: 'object', additionalProperties: { $ref: '#/$defs/parameter' } },
        headers: { type: 'object', additionalProperties: { $ref: '#/$defs/header' } },
        responses: { type: 'object', additionalProperties: { $ref: '#/$defs/response' } },
        requestBodies: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['content'],
            properties: { content: { $ref: '#/$defs/content' }, required: { type: 'boolean' } },
          },
        },
        securitySchemes: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['type'],
            properties: {
              type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] },
              scheme: { type: 'string' },
            },
            if: { properties: { type: { const: 'http' } } },
            then: { required: ['scheme'] },
          },
        },
      },
    },
  },
  $defs: {
    ref: {
      type: 'object',
      required: ['$ref'],
      properties: { $ref: { type: 'string', pattern: '^#/' } },
    },
    securityRequirement: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    pathItem: {
      type: 'object',
      propertyNames: { enum: [...HTTP_METHODS, 'summary', 'description', 'parameters', 'servers'] },
      additionalProperties: true,
      properties: Object.fromEntries(HTTP_METHODS.map((m) => [m, { $ref: '#/$defs/operation' }])),
      anyOf: HTTP_METHODS.map((m) => ({ required: [m] })),
    },
    operation: {
      type: 'object',
      required: ['operationId', 'summary', 'responses'],
      properties: {
        operationId: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$' },
        summary: { type: 'string', minLength: 1 },
        tags: { type: 'array', items: { type: 'string' } },
        deprecated: { type: 'boolean' },
        security: { type: 'array', items: { $ref: '#/$defs/securityRequirement' } },
        parameters: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/ref' }, { $ref: '#/$defs/parameter' }] } },
        requestBody: { type: 'object' },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5][0-9]{2}|[1-5]XX|default)$' },
          additionalProperties: { anyOf: [{ $ref: '#/$defs/ref' }, { $ref: '#/$defs/response' }] },
        },
      },
    },
    parameter: {
      type: 'object',
      required: ['name', 'in', 'schema'],
      properties: {
        name: { type: 'string', minLength: 1 },
        in: { enum: ['query', 'header', 'path', 'cookie'] },
        required: { type: 'boolean' },
        schema: { type: 'object' },
      },
      // OpenAPI ignores these header parameters; declaring them would mislead readers.
      not: { properties: { in: { const: 'header' }, name: { enum: ['Accept', 'Content-Type', 'Authorization'] } } },
      if: { properties: { in: { const: 'path' } } },
      then: { required: ['required'], properties: { required: { const: true } } },
    },
    header: { type: 'object', required: ['schema'], properties: { schema: { type: 'object' } } },
    response: {
      type: 'object',
      required: ['description'],
      not: { required: ['$ref'] },
      properties: {
        description: { type: 'string', minLength: 1 },
        headers: {
          type: 'object',
          additionalProperties: { anyOf: [{ $ref: '#/$defs/ref' }, { $ref: '#/$defs/header' }] },
        },
        content: { $ref: '#/$defs/content' },
      },
    },
    content: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[a-z]+/[a-z0-9.+-]+(;.*)?$' },
      additionalProperties: { type: 'object', properties: { schema: { type: ['object', 'boolean'] } } },
    },
  },
};

/** Top-level members of an OpenAPI document: declared so that ajv's strict mode accepts the document as a schema resource. */
const OPENAPI_ROOT_KEYWORDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags', 'paths', 'components'];
const DOCUMENT_ID = 'https://vigil.invalid/openapi.json';

/**
 * Strict ajv, except that `required` may name members declared in a sibling branch (anyOf/if/then/not do that
 * on purpose), and union types (`["string", "null"]`) are allowed as OpenAPI 3.1 uses them.
 */
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

/** An ajv instance holding the document, so that a `#/components/...` pointer compiles (strictly) in place. */
function ajvWithDocument(): Ajv2020 {
  const ajv = newAjv();
  ajv.addVocabulary(OPENAPI_ROOT_KEYWORDS);
  ajv.addSchema(structuredClone(openApiDocument), DOCUMENT_ID);
  return ajv;
}

function collectRefs(node: unknown, at: string, out: { ref: string; at: string }[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => collectRefs(item, `${at}/${i}`, out));
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push({ ref: value, at });
      else collectRefs(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const doc = openApiDocument;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => ({ path, method: m, op: item[m]! })),
);

describe('openApiDocument', () => {
  it('matches the OpenAPI 3.1 structure that matters', () => {
    const validate = newAjv().compile(openApiStructureSchema);
    const ok = validate(JSON.parse(JSON.stringify(doc)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('structure schema catches a broken document', () => {
    const validate = newAjv().compile(openApiStructureSchema);
    const broken = structuredClone(doc) as unknown as Record<string, any>;
    broken.openapi = '3.0.3';
    broken.paths['/v1/findings'].get.responses = {};
    expect(validate(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => e.instancePath);
    expect(paths).toEqual(expect.arrayContaining(['/openapi', '/paths/~1v1~1findings/get/responses']));
  });

  it('has every path of the spec with its method, and nothing else', () => {
    const actual = operations.map(({ path, method }) => `${method.toUpperCase()} ${path}`).sort();
    const expected = EXPECTED_OPERATIONS.map(([path, method]) => `${method.toUpperCase()} ${path}`).sort();
    expect(actual).toEqual(expected);
  });

  it('resolves every $ref within the document', () => {
    const refs: { ref: string; at: string }[] = [];
    collectRefs(doc, '#', refs);
    expect(refs.length).toBeGreaterThan(50);
    const dangling = refs.filter(({ ref }) => resolvePointer(doc, ref) === undefined);
    expect(dangling).toEqual([]);
  });

  it('names every schema once across the schema modules', () => {
    const parts = [telemetrySchemas, alertSchemas, findingSchemas, serviceSchemas].map((p) => Object.keys(p));
    const all = parts.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...all].sort());
  });

  it('compiles every component schema with ajv (draft 2020-12, strict)', () => {
    const ajv = ajvWithDocument();
    const names = Object.keys(doc.components.schemas);
    for (const name of names) {
      expect(() => ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`)).not.toThrow();
      expect(typeof ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`)).toBe('function');
    }
  });

  it('has the resource schemas the spec defines', () => {
    const required = [
      'eventsResponseBody', 'accountStatus', 'message', 'alert', 'wisdom', 'alerts', 'threats', 'threat', 'flags',
      'flag', 'findings', 'finding', 'detectionsUpload', 'customerRules', 'detectionsBadRequest', 'errorMessage',
      'dnsEvent', 'ipEvent', 'tlsEvent', 'httpEvent', 'leaseEvent',
    ];
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(required));
  });

  it('gives operations unique ids, declared tags and a known security scheme', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((doc.tags ?? []).map((t) => t.name));
    for (const { op } of operations) for (const tag of op.tags ?? []) expect(tags).toContain(tag);
    const schemes = Object.keys(doc.components.securitySchemes);
    const requirements = [...(doc.security ?? []), ...operations.flatMap(({ op }) => op.security ?? [])];
    for (const req of requirements) for (const name of Object.keys(req)) expect(schemes).toContain(name);
    expect(doc.components.securitySchemes[Object.keys(doc.security![0])[0]]).toMatchObject({ type: 'http', scheme: 'basic' });
  });

  it('requires credentials on /v1 and not on the operational endpoints', () => {
    for (const { path, op } of operations) {
      if (path.startsWith('/v1/')) expect(op.security).toBeUndefined();
      else expect(op.security).toEqual([]);
    }
  });

  it('documents auth, rate-limit and availability errors on every /v1 operation, with Retry-After on 429', () => {
    for (const { path, op } of operations.filter((o) => o.path.startsWith('/v1/'))) {
      for (const status of ['400', '401', '403', '404', '405', '429', '503']) {
        expect({ path, status, has: status in op.responses }).toEqual({ path, status, has: true });
      }
    }
    const tooMany = doc.components.responses.TooManyRequests;
    expect(Object.keys(tooMany.headers ?? {})).toContain('Retry-After');
    const bodyOps = operations.filter((o) => o.method === 'post');
    for (const { op } of bodyOps) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['413', '415']));
  });

  it('marks /v1/alerts deprecated and describes the findings stream', () => {
    expect(doc.paths['/v1/alerts'].get!.deprecated).toBe(true);
    const ok = doc.paths['/v1/findings'].get!.responses['200'];
    expect('content' in ok && Object.keys(ok.content!)).toEqual(['application/json', 'application/x-ndjson']);
    expect('headers' in ok && Object.keys(ok.headers!)).toEqual(['X-Stream-Follow', 'X-Stream-More']);
    const alertsOk = doc.paths['/v1/alerts'].get!.responses['200'];
    expect('headers' in alertsOk && Object.keys(alertsOk.headers!)).toEqual(['X-Stream-Follow', 'X-Stream-More']);
    const paramNames = (path: string) =>
      (doc.paths[path].get!.parameters ?? []).map((p) => {
        const target = '$ref' in p ? resolvePointer(doc, p.$ref) : p;
        return (target as { name: string }).name;
      });
    expect(paramNames('/v1/findings')).toEqual(['follow', 'schema', 'format', 'maxAge', 'minSeverity']);
    expect(paramNames('/v1/alerts')).toEqual(['follow', 'maxAge', 'minSeverity', 'threats']);
    expect(doc.components.parameters.findingsFormat.deprecated).toBe(true);
  });

  it.each([
    ['86400s', true, true],
    ['30d', true, false],
    ['720h', true, true],
    ['15m', true, true],
    ['0s', false, false],
    ['000h', false, false],
    ['1w', false, false],
    ['10', false, false],
    ['-5s', false, false],
    ['1.5h', false, false],
    ['s', false, false],
    ['', false, false],
    ['2592000s', true, true],
    ['2592001s', false, false],
    ['43200m', true, true],
    ['43201m', false, false],
    ['721h', false, false],
    ['31d', false, false],
    ['086400s', false, false],
    ['9999999999999d', false, false],
  ])('maxAge %p: findings %s, alerts %s', (value, findings, alerts) => {
    expect(new RegExp(FINDINGS_MAX_AGE_PATTERN).test(value)).toBe(findings);
    expect(new RegExp(ALERTS_MAX_AGE_PATTERN).test(value)).toBe(alerts);
  });

  it('has examples that satisfy their own schemas', () => {
    const ajv = ajvWithDocument();
    let checked = 0;
    for (const [name, body] of Object.entries(doc.components.requestBodies)) {
      const media = body.content['application/json'];
      if (!media?.schema || !media.examples) continue;
      for (const example of Object.values(media.examples)) {
        const validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/requestBodies/${name}/content/application~1json/schema` });
        expect({ name, ok: validate(example.value), errors: validate.errors ?? null }).toEqual({ name, ok: true, errors: null });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('validates realistic responses and rejects wrong ones', () => {
    const ajv = ajvWithDocument();
    const schema = (name: string) => ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`)!;
    const alerts = schema('alerts');
    const goodAlerts = {
      follow: 'eyJpZCI6MjA2NTM2fQ',
      more: false,
      alerts: [
        {
          eventType: 'dns',
          event: { ts: '2021-04-07T09:55:37Z', srcIP: '10.14.1.39', srcHost: 'win-3xchk5-lp', query: 'hsxfrfokdkojcj.net', qtype: 'A' },
          threats: ['suspicious_domain_volume'],
          wisdom: { flags: ['perplexing_domain', 'unique'], domain: 'hsxfrfokdkojcj.net' },
        },
      ],
      threats: { suspicious_domain_volume: { title: 'Multiple requests to suspicious domains', severity: 3, policy: false } },
    };
    expect(alerts(goodAlerts)).toBe(true);
    expect(alerts({ ...goodAlerts, follow: '' })).toBe(false);
    expect(alerts({ follow: 'x', more: false, alerts: [] })).toBe(false);
    expect(alerts({ ...goodAlerts, threats: { t: { title: 'x', severity: '3' } } })).toBe(false);

    const upload = schema('eventsResponseBody');
    expect(upload({ received: 3, accepted: 2, rejected: { invalid_ts: 1 } })).toBe(true);
    expect(upload({ received: 9, accepted: 0, rejected: { invalid_srcIP: 1, missing_query: 1, too_deep: 1, ts_out_of_range: 1 } })).toBe(true);
    expect(upload({ received: 3, accepted: 2, rejected: { invalid_: 1 } })).toBe(false);
    expect(upload({ received: 3, accepted: 2, rejected: { some_reason: 1 } })).toBe(false);
    expect(upload({ received: 3, accepted: 2, rejected: { 'Bad Reason': 1 } })).toBe(false);
    expect(upload({ received: 3, accepted: 2 })).toBe(false);

    const status = schema('accountStatus');
    const goodStatus = {
      today: '2024-06-10T06:13:20.123Z',
      registered: false,
      expired: false,
      endpointsSeenToday: 0,
      messages: [{ level: 2, body: 'This API key is not activated yet.' }],
    };
    expect(status(goodStatus)).toBe(true);
    expect(status({ ...goodStatus, expirationDate: '2025-01-01T00:00:00Z' })).toBe(true);
    expect(status({ ...goodStatus, messages: [{ level: 4, body: 'x' }] })).toBe(false);
    expect(status({ ...goodStatus, registered: 'no' })).toBe(false);

    const finding = schema('finding');
    const minimal = {
      activity_id: 1,
      category_uid: 2,
      class_uid: 2004,
      type_uid: 200401,
      severity_id: 4,
      time: 1718000000,
      metadata: { version: '1.2.0', product: { vendor_name: 'Vigil' } },
      finding_info: { uid: 'f-1', title: 'DNS tunnel' },
    };
    expect(finding(minimal)).toBe(true);
    expect(finding({ ...minimal, class_uid: 2001 })).toBe(false);
    const { finding_info: _omitted, ...noInfo } = minimal;
    expect(finding(noInfo)).toBe(false);
  });

  it('describes each customer rule with its state: active, or quarantined with the reason', () => {
    const rules = ajvWithDocument().getSchema(`${DOCUMENT_ID}#/components/schemas/customerRules`)!;
    const rule = { id: 'r-1', kind: 'rule', title: 'T', level: 'high', status: 'test', fileName: 'a.yml', updatedAt: '2025-01-01T00:00:00.000Z' };
    expect(rules({ rules: [{ ...rule, state: 'active' }, { ...rule, id: 'r-2', state: 'quarantined', reason: 'rule budget exceeded' }] })).toBe(true);
    expect(rules({ rules: [rule] })).toBe(false);
    expect(rules({ rules: [{ ...rule, state: 'broken' }] })).toBe(false);
  });

  it('serialises to JSON without loss', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });
});
