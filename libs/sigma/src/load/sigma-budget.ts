/**
 * Everything a customer Sigma rule may cost, in one place. Each limit is checked before the work it bounds is
 * done: the raw text before the YAML parser runs, the parsed document before it is converted to data, a rule's
 * values before it is compiled, a workspace's totals before a rule joins its rule set, and the upload's
 * validation as a whole by the worker thread it runs in.
 *
 * Reference points (the largest of the 246 SigmaHQ network rules in `shared/sigma/rules-network`,
 * `net_connection_win_domain_crypto_mining_pools.yml`): 11.7 KB, 339 structural tokens, 358 YAML nodes, 6.3 KB of
 * scalars, 315 detection values. Every default leaves a margin of 30x or more over that, room for the
 * indicator lists customers keep in rules, while a hostile file stays far below what hurts: one compiled pattern
 * costs about 1.2 KB of heap (measured on 50,000 `contains` values), so the workspace cap keeps a compiled rule
 * set near 120 MB at most.
 */
export const SIGMA_BUDGET = {
  /** One YAML file (a rule file of an upload, or a stored rule's source). */
  yaml: {
    /** Bytes of a file; the upload's zip reader already caps every `.yml` at 1 MB. */
    maxBytes: 1024 * 1024,
    /**
     * Structural tokens of a file (flow separators and openers, `- ` sequence entries, `key:` indicators,
     * aliases), counted by a linear scan before parsing: the parser's own tree costs hundreds of bytes per node,
     * so a 1 MB file of 450,000 one-letter items never reaches it. About 47x the largest SigmaHQ network rule.
     */
    maxStructuralTokens: 16_000,
    /** Nesting of maps and lists (flow nesting is checked before parsing); real rules stay under 8. */
    maxDepth: 32,
    /** Documents per file (`---` collections). */
    maxDocuments: 1000,
    /** Alias references (`*name`) per document; SigmaHQ rules use none. */
    maxAliases: 100,
    /** Nodes of one document once every alias is expanded (keys, values, maps, lists); about 90x SigmaHQ's largest. */
    maxExpandedNodes: 32_000,
    /** Bytes of all scalars (keys and values) of one document once every alias is expanded. */
    maxExpandedScalarBytes: 2 * 1024 * 1024,
  },
  /** One detection rule or filter, counted on its data before it is compiled. */
  rule: {
    /** Values of the detection (each item of every value list, keywords included); about 30x SigmaHQ's largest. */
    maxValues: 10_000,
    /**
     * Compiled patterns: values times their variants (`expand` placeholder values, `windash` spellings,
     * `base64offset` offsets) times the event types the logsource feeds.
     */
    maxPatterns: 20_000,
    /** Characters of those patterns. */
    maxPatternBytes: 1024 * 1024,
  },
  /** A workspace's whole rule set (the rules an upload keeps plus the ones it adds; enforced again by scoring). */
  workspace: {
    /** Documents (rules, filters and correlations); SigmaHQ has about 3,800 rules in all. */
    maxDocuments: 10_000,
    maxValues: 50_000,
    /** At about 1.2 KB of heap per compiled pattern: about 120 MB per compiled rule set. */
    maxPatterns: 100_000,
    maxPatternBytes: 8 * 1024 * 1024,
  },
  /**
   * Validation of one upload, run in a worker thread: terminated when it runs longer or its heap grows larger
   * (the upload is then refused with a 400 naming the budget). Validating 5,000 SigmaHQ-sized files takes a few
   * seconds and well under 200 MB.
   */
  upload: {
    timeoutMs: 30_000,
    maxOldGenerationSizeMb: 512,
    maxYoungGenerationSizeMb: 64,
    /** Uploads waiting for the validation worker; more are answered 503. */
    maxQueued: 16,
  },
} as const;

export type SigmaBudget = typeof SIGMA_BUDGET;
