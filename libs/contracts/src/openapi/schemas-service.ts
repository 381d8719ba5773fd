import type { JsonSchema } from './openapi-types';
import { schemaRef } from './refs';

/** Account status, Sigma rule uploads, error bodies and the operational probes. */
export const serviceSchemas: Record<string, JsonSchema> = {
  message: {
    title: 'Message',
    description: 'A note for the people operating a client, meant to be displayed as is.',
    type: 'object',
    required: ['level', 'body'],
    properties: {
      level: { type: 'integer', enum: [1, 2, 3], description: '1 information, 2 warning, 3 error.' },
      body: { type: 'string' },
    },
  },
  accountStatus: {
    title: 'Account status',
    description: 'State and usage of the API key that made the request.',
    type: 'object',
    required: ['today', 'registered', 'expired', 'endpointsSeenToday', 'messages'],
    properties: {
      today: { type: 'string', format: 'date-time', description: "The server's current time, with sub-second digits." },
      registered: {
        type: 'boolean',
        description: 'False while the key is not activated; results are then withheld and a warning message explains why.',
      },
      expired: { type: 'boolean', description: 'True once the key is past its expiration date.' },
      expirationDate: {
        type: 'string',
        format: 'date-time',
        description: 'When the key stops working; absent for a key without an end date.',
      },
      endpointsSeenToday: {
        type: 'integer',
        minimum: 0,
        description: 'Distinct source hosts seen in telemetry sent with this key since midnight UTC.',
      },
      messages: { type: 'array', items: schemaRef('message') },
    },
  },
  detectionsUpload: {
    title: 'Rule upload result',
    type: 'object',
    required: ['accepted'],
    properties: {
      accepted: {
        type: 'integer',
        minimum: 0,
        description: 'Sigma rules read from the archive and accepted (only validated when `dry_run` is true).',
      },
      ignored: {
        type: 'array',
        items: { type: 'string' },
        description: 'Archive entries that are not `.yml`/`.yaml` files, left unread; absent when there were none.',
      },
    },
  },
  customerRules: {
    title: 'Customer rules',
    description: "The workspace's stored customer Sigma rules.",
    type: 'object',
    required: ['rules'],
    properties: {
      rules: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'kind', 'title', 'state'],
          properties: {
            id: { type: 'string', description: 'The rule id (Sigma `id`, else `name`, else a content hash).' },
            kind: { type: 'string', enum: ['rule', 'correlation', 'filter'] },
            title: { type: 'string' },
            level: { type: 'string' },
            status: { type: 'string' },
            fileName: { type: 'string', description: 'File the rule came from in its last upload.' },
            updatedAt: { type: 'string', format: 'date-time' },
            state: {
              type: 'string',
              enum: ['active', 'quarantined'],
              description:
                '`quarantined`: the scoring engines could not load this version of the rule (a compile error, a budget exceeded, an exception) and it does not run; the workspace\'s other rules do.',
            },
            reason: { type: 'string', description: 'Why the rule is quarantined (present only then).' },
          },
        },
      },
    },
  },
  detectionsBadRequest: {
    title: 'Rule upload refusal',
    description: 'Why a rule archive was refused, with one entry per rule file that failed.',
    type: 'object',
    required: ['message'],
    properties: {
      message: { type: 'string' },
      validationResult: {
        type: 'object',
        required: ['valid', 'invalid', 'errors'],
        properties: {
          valid: { type: 'integer', minimum: 0, description: 'Rules that passed validation.' },
          invalid: { type: 'integer', minimum: 0, description: 'Rules that failed validation or could not be stored.' },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['fileName', 'error'],
              properties: {
                fileName: { type: 'string', description: 'Path of the rule file inside the archive.' },
                error: { type: 'string', description: 'What is wrong with it.' },
              },
            },
          },
        },
      },
    },
  },
  errorMessage: {
    title: 'Error',
    description: 'Body of every error response except a refused rule archive.',
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string', minLength: 1 } },
  },
  probeStatus: {
    title: 'Probe result',
    description: 'Body of a successful probe: `ok` from the liveness probe, `ready` from the readiness probe.',
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['ok', 'ready'] } },
  },
};
