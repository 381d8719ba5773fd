import { ALERTS_MAX_AGE_PATTERN, FINDINGS_MAX_AGE_PATTERN, maxAgeLimits } from './max-age';
import type { HeaderObject, ParameterObject } from './openapi-types';

export const componentParameters: Record<string, ParameterObject> = {
  follow: {
    name: 'follow',
    in: 'query',
    required: false,
    description:
      'Bookmark returned by an earlier call; only results stored after it are returned. A missing, empty, `0` or unrecognised value starts from the `maxAge` look-back. A bookmark may be sent any number of times.',
    schema: { type: 'string' },
  },
  findingsSchema: {
    name: 'schema',
    in: 'query',
    required: false,
    description: 'Record format of the findings. OCSF is the only format offered.',
    schema: { type: 'string', enum: ['ocsf'], default: 'ocsf' },
  },
  findingsFormat: {
    name: 'format',
    in: 'query',
    required: false,
    deprecated: true,
    description:
      'Spelling of `schema` used by the earlier interface. When present, the JSON page lists the findings under `findings` instead of `records`.',
    schema: { type: 'string', enum: ['ocsf'] },
  },
  findingsMaxAge: {
    name: 'maxAge',
    in: 'query',
    required: false,
    description: `Oldest result to return: a whole number without leading zeros followed by \`s\`, \`m\`, \`h\` or \`d\` (for example \`86400s\`), from 1 up to 30 days: ${maxAgeLimits('findings')}. Defaults to three days when the parameter is left out. Any other value, an empty one included, is a 400. The pattern states exactly this grammar and its bounds.`,
    schema: { type: 'string', pattern: FINDINGS_MAX_AGE_PATTERN, default: '3d', examples: ['86400s', '30d'] },
  },
  alertsMaxAge: {
    name: 'maxAge',
    in: 'query',
    required: false,
    description: `Oldest alert to return: a whole number without leading zeros followed by \`s\`, \`m\` or \`h\` (for example \`3600s\`), from 1 up to 30 days: ${maxAgeLimits('alerts')}. Defaults to three days when the parameter is left out. Any other value, an empty one or days included, is a 400. The pattern states exactly this grammar and its bounds.`,
    schema: { type: 'string', pattern: ALERTS_MAX_AGE_PATTERN, default: '72h', examples: ['3600s', '720h'] },
  },
  minSeverity: {
    name: 'minSeverity',
    in: 'query',
    required: false,
    description: 'Leave out results whose severity is below this value (1 informational … 5 critical). Any other value, an empty one included, is a 400.',
    schema: { type: 'integer', minimum: 1, maximum: 5 },
  },
  threats: {
    name: 'threats',
    in: 'query',
    required: false,
    description:
      'With `all`, the `threats` map of the response holds the whole threat dictionary instead of only the threats the returned alerts mention. Any other value is ignored.',
    schema: { type: 'string', examples: ['all'] },
  },
  importMode: {
    name: 'import_mode',
    in: 'query',
    required: false,
    description:
      '`merge` adds the uploaded rules and overwrites rules with the same identity; `replace` first drops every rule previously uploaded with this key.',
    schema: { type: 'string', enum: ['merge', 'replace'], default: 'merge' },
  },
  dryRun: {
    name: 'dry_run',
    in: 'query',
    required: false,
    description: 'When true the archive is only checked: the answer is the same, but nothing is stored.',
    schema: { type: 'boolean', default: false },
  },
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A key the client chooses for this batch: 1 to 255 visible ASCII characters, optionally in double quotes. The same batch sent again with the same key within 24 hours gets the first answer back, marked `Idempotent-Replayed: true`, and is not queued twice. The same key with another body or event type is a 422; while the first request with the key is still being processed, a 409.',
    // Visible ASCII, 1-255 characters, or such a key in double quotes (so up to 257); `""` (an empty quoted key)
    // is refused. Written without look-ahead, which some schema-driven test generators cannot handle.
    schema: {
      type: 'string',
      pattern: '^(?:[\\x21-\\x7e]|[\\x21\\x23-\\x7e][\\x21-\\x7e]|"[\\x21\\x23-\\x7e]|[\\x21-\\x7e]{3,255}|"[\\x21-\\x7e]{254,255}")$',
    },
  },
  contentEncoding: {
    name: 'Content-Encoding',
    in: 'header',
    required: false,
    description:
      'Compression applied to the body. `deflate` may be zlib-wrapped or raw. The size limit applies to the body after decompression.',
    schema: { type: 'string', enum: ['gzip', 'x-gzip', 'deflate', 'identity'] },
  },
};

export const componentHeaders: Record<string, HeaderObject> = {
  'X-Stream-Follow': {
    description: 'Bookmark to send as `follow` on the next call (the same value as `follow` in a JSON body).',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  'X-Stream-More': {
    description: '`true` while further results are ready, `false` on the last page.',
    required: true,
    schema: { type: 'boolean' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  RetryAfterHint: {
    description: 'Seconds to wait before trying again, when the server can tell (for example a full publish queue).',
    required: false,
    schema: { type: 'integer', minimum: 1 },
  },
  'Idempotent-Replayed': {
    description: 'Sent as `true` when the answer is the stored answer of an earlier request with the same `Idempotency-Key`.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  Allow: {
    description: 'Methods this path answers to.',
    required: true,
    schema: { type: 'string', examples: ['GET'] },
  },
};
