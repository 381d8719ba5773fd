import type { JsonSchema } from './openapi-types';
import { schemaRef } from './refs';

/**
 * Findings: OCSF 1.2.0 Detection Findings (class 2004). Only the members Vigil fills are described; the
 * schemas stay open (extra members allowed) because the OCSF class defines many more.
 */
const epochSeconds = (description: string): JsonSchema => ({ type: 'integer', format: 'int64', minimum: 0, description });
const dateTime = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });

export const findingSchemas: Record<string, JsonSchema> = {
  aggregatedDetection: {
    type: 'object',
    description: 'A detection inside the aggregation key of a finding.',
    required: ['id', 'key', 'severity'],
    properties: {
      id: { type: 'string', description: 'Detection (rule) identifier.' },
      key: { type: 'string', description: 'Value the detection aggregated on.' },
      severity: schemaRef('severity'),
      observations: { type: 'array', items: { type: 'string' }, description: 'What was observed, in short phrases.' },
      mitreAttack: { type: 'array', items: schemaRef('mitreAttackRef') },
      threat: { type: 'string', description: 'Legacy threat ID this detection maps to.' },
    },
  },
  findingAggregation: {
    type: 'object',
    description: 'How source events were grouped into this finding.',
    properties: {
      key: {
        type: 'object',
        properties: {
          workspaceID: { type: 'string' },
          srcIP: { type: 'string' },
          detections: { type: 'array', items: schemaRef('aggregatedDetection') },
        },
      },
      keyHash: { type: 'string', description: 'Stable hash of `key`.' },
      batchIDs: { type: 'array', items: { type: 'string' }, description: 'Telemetry uploads that contributed events.' },
    },
  },
  findingMetadata: {
    type: 'object',
    properties: {
      processed_time: epochSeconds('When Vigil produced this version of the finding.'),
      processed_time_dt: dateTime('`processed_time` as a date-time.'),
      product: {
        type: 'object',
        properties: { vendor_name: { type: 'string' }, name: { type: 'string' }, version: { type: 'string' } },
      },
      profiles: { type: 'array', items: { type: 'string' }, description: 'OCSF profiles the record uses (e.g. datetime, host).' },
      version: { type: 'string', const: '1.2.0', description: 'OCSF schema version.' },
    },
  },
  findingInfo: {
    type: 'object',
    required: ['uid', 'title'],
    properties: {
      uid: { type: 'string', description: 'Identifier of the finding, stable across its updates.' },
      title: { type: 'string' },
      desc: { type: 'string' },
      types: { type: 'array', items: { type: 'string' } },
      created_time: epochSeconds('When the finding was first raised.'),
      created_time_dt: dateTime('`created_time` as a date-time.'),
      attacks: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            tactic: { type: 'object', properties: { uid: { type: 'string' }, name: { type: 'string' } } },
            technique: { type: 'object', properties: { uid: { type: 'string' }, name: { type: 'string' } } },
          },
        },
      },
    },
  },
  findingObservable: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Path of the observed value inside the finding.' },
      type: { type: 'string' },
      type_id: { type: 'integer' },
      value: { type: 'string' },
    },
  },
  findingEnrichment: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      type: { type: 'string' },
      value: { type: 'string' },
      data: { type: 'object', properties: { aggregation: schemaRef('findingAggregation') } },
    },
  },
  findingEvidence: {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        description: 'A source event that supports the finding, with the context the engine attached to it.',
        properties: {
          type: { type: 'string', description: 'Telemetry type of the event (dns, ip, http, tls).' },
          ts: { type: 'string', format: 'date-time' },
          srcIP: { type: 'string' },
          srcPort: { type: 'integer' },
          body: {
            type: 'object',
            properties: { fqdn: { type: 'string' }, qtype: { type: 'string' }, rcode: { type: 'string' } },
          },
          wisdom: schemaRef('wisdom'),
        },
      },
      query: { type: 'object', properties: { type: { type: 'string' }, hostname: { type: 'string' } } },
      src_endpoint: { type: 'object', properties: { ip: { type: 'string' }, port: { type: 'integer' } } },
    },
  },
  finding: {
    title: 'Finding (OCSF 1.2.0 Detection Finding)',
    description:
      'A detection result in the OCSF 1.2.0 Detection Finding class. A finding groups the source events of one host that matched the same detections; later versions of the same finding (activity Update) share `finding_info.uid`.',
    type: 'object',
    required: ['activity_id', 'category_uid', 'class_uid', 'finding_info', 'metadata', 'severity_id', 'time', 'type_uid'],
    properties: {
      category_uid: { type: 'integer', const: 2 },
      category_name: { type: 'string', examples: ['Findings'] },
      class_uid: { type: 'integer', const: 2004 },
      class_name: { type: 'string', examples: ['Detection Finding'] },
      activity_id: { type: 'integer', enum: [0, 1, 2, 3, 99], description: '1 Create, 2 Update, 3 Close.' },
      activity_name: { type: 'string' },
      type_uid: { type: 'integer', enum: [200400, 200401, 200402, 200403, 200499], description: '200400 + activity_id.' },
      type_name: { type: 'string', examples: ['Detection Finding: Create'] },
      severity_id: { type: 'integer', enum: [0, 1, 2, 3, 4, 5, 6, 99] },
      severity: { type: 'string' },
      count: { type: 'integer', minimum: 1, description: 'Number of source events aggregated into the finding.' },
      time: epochSeconds('When this version of the finding was produced (Unix seconds).'),
      time_dt: dateTime('`time` as a date-time.'),
      start_time: epochSeconds('Time of the earliest aggregated event (Unix seconds).'),
      start_time_dt: dateTime('`start_time` as a date-time.'),
      end_time: epochSeconds('Time of the latest aggregated event (Unix seconds).'),
      end_time_dt: dateTime('`end_time` as a date-time.'),
      metadata: schemaRef('findingMetadata'),
      device: {
        type: 'object',
        properties: { ip: { type: 'string' }, type_id: { type: 'integer' } },
      },
      observables: { type: 'array', items: schemaRef('findingObservable') },
      finding_info: schemaRef('findingInfo'),
      enrichments: { type: 'array', items: schemaRef('findingEnrichment') },
      evidences: { type: 'array', items: schemaRef('findingEvidence') },
    },
  },
  findings: {
    title: 'Findings page',
    description: 'A page of findings, returned when `schema` is used (or neither `schema` nor `format`).',
    type: 'object',
    required: ['follow', 'more', 'records'],
    properties: {
      follow: schemaRef('bookmark'),
      more: { type: 'boolean', description: 'True while further findings are ready; ask again straight away.' },
      records: { type: 'array', items: schemaRef('finding') },
    },
  },
  legacyFindings: {
    title: 'Findings page (legacy layout)',
    description: 'The page layout of the earlier interface, returned when the request uses `format=ocsf`: the list is under `findings`.',
    deprecated: true,
    type: 'object',
    required: ['follow', 'more', 'findings'],
    properties: {
      follow: schemaRef('bookmark'),
      more: { type: 'boolean' },
      findings: { type: 'array', items: schemaRef('finding') },
    },
  },
};
