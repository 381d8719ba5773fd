import type { JsonSchema } from './openapi-types';
import { schemaRef } from './refs';

/** Alerts (the deprecated result format), their context, and the threat and flag dictionaries. */
export const alertSchemas: Record<string, JsonSchema> = {
  severity: {
    type: 'integer',
    minimum: 1,
    maximum: 5,
    description: '1 informational, 2 low, 3 medium, 4 high, 5 critical.',
  },
  mitreAttackRef: {
    type: 'string',
    description: 'A MITRE ATT&CK tactic and technique, written `<tactic id>:<technique id>`.',
    pattern: '^TA[0-9]{4}:T[0-9]{4}(\\.[0-9]{3})?$',
    examples: ['TA0011:T1071.004'],
  },
  bookmark: {
    type: 'string',
    minLength: 1,
    description:
      'Opaque position in a result stream. Never empty; send it back as `follow` to continue after the last item received.',
  },
  wisdom: {
    title: 'Wisdom',
    description: 'What the scoring engine knew about the event when it raised the alert.',
    type: 'object',
    properties: {
      flags: { type: 'array', items: { type: 'string' }, description: 'Flag IDs (see the flag dictionary).' },
      labels: {
        type: 'array',
        items: { type: 'string', pattern: '^[^:]+:.+$' },
        description: 'Labels written `<category>:<name>`, for example `c2:TrickBot`.',
      },
      domain: { type: 'string', description: 'Registered domain the event concerns, when there is one.' },
    },
  },
  alertDetection: {
    type: 'object',
    description: 'A detection that contributed to an alert.',
    required: ['id', 'key', 'severity'],
    properties: {
      id: { type: 'string', description: 'Detection (rule) identifier.' },
      key: { type: 'string', description: 'Value the detection aggregated on (for example a registered domain).' },
      severity: schemaRef('severity'),
    },
  },
  alert: {
    title: 'Alert',
    description: 'One scored event that raised at least one threat. Superseded by findings.',
    deprecated: true,
    type: 'object',
    required: ['eventType', 'event', 'threats', 'wisdom'],
    properties: {
      id: {
        type: 'string',
        format: 'uuid',
        description: 'Name-based identifier; the same alert delivered twice carries the same id.',
      },
      eventType: { type: 'string', enum: ['dns', 'ip', 'http', 'tls'], description: 'Which kind of event `event` is.' },
      threats: {
        type: 'array',
        items: { type: 'string' },
        description: 'Threat IDs raised; each is defined in the `threats` map of the same response.',
      },
      wisdom: schemaRef('wisdom'),
      event: {
        description: 'The event as Vigil stored it after normalisation; its kind is given by `eventType`.',
        anyOf: [schemaRef('dnsEvent'), schemaRef('ipEvent'), schemaRef('httpEvent'), schemaRef('tlsEvent')],
      },
      detections: { type: 'array', items: schemaRef('alertDetection') },
      mitreAttack: { type: 'array', items: schemaRef('mitreAttackRef') },
    },
  },
  alerts: {
    title: 'Alerts page',
    description: 'A page of alerts. All four members are always present.',
    type: 'object',
    required: ['follow', 'more', 'alerts', 'threats'],
    properties: {
      follow: schemaRef('bookmark'),
      more: { type: 'boolean', description: 'True while further alerts are ready; ask again straight away.' },
      alerts: { type: 'array', items: schemaRef('alert') },
      threats: schemaRef('threats'),
    },
  },
  threat: {
    title: 'Threat',
    description: 'An entry of the threat dictionary. Titles and severities may be revised at any time.',
    type: 'object',
    required: ['title', 'severity'],
    properties: {
      title: { type: 'string', description: 'What the threat means, for people.' },
      severity: schemaRef('severity'),
      policy: { type: 'boolean', description: 'True for threats that signal a policy breach rather than an infection.' },
    },
  },
  threats: {
    title: 'Threat dictionary',
    description: 'Threats keyed by threat ID.',
    type: 'object',
    additionalProperties: schemaRef('threat'),
    examples: [
      {
        multiple_long_hostnames: {
          title: 'Multiple requests to long hostnames indicating DNS tunneling',
          severity: 4,
          policy: false,
        },
      },
    ],
  },
  flag: {
    title: 'Flag',
    description: 'An entry of the flag dictionary.',
    type: 'object',
    required: ['title', 'type'],
    properties: {
      title: { type: 'string', description: 'What the flag means, for people.' },
      type: { type: 'string', enum: ['category', 'feature'] },
    },
  },
  flags: {
    title: 'Flag dictionary',
    description: 'Flags keyed by flag ID.',
    type: 'object',
    additionalProperties: schemaRef('flag'),
  },
  threatsInventory: {
    type: 'object',
    required: ['threats'],
    properties: { threats: schemaRef('threats') },
  },
  flagsInventory: {
    type: 'object',
    required: ['flags'],
    properties: { flags: schemaRef('flags') },
  },
};
