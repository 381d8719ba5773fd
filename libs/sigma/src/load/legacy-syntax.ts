/** Sigma v1 aggregation functions that v2 replaced with correlation rules. */
const AGGREGATION = /\b(count|sum|min|max|avg)\s*\(|\bnear\b/i;

/**
 * Recognises Sigma v1 constructs that v2 removed and explains each one; undefined when none is present.
 * Checked before the JSON Schema so the reason names the construct rather than a side effect of it.
 */
export function legacySyntaxError(rule: Record<string, unknown>): string | undefined {
  const detection = rule.detection;
  if (detection === null || typeof detection !== 'object' || Array.isArray(detection)) return undefined;
  const { condition, timeframe } = detection as Record<string, unknown>;
  const conditions = Array.isArray(condition) ? condition : [condition];
  for (const c of conditions) {
    if (typeof c !== 'string') continue;
    if (c.includes('|') || AGGREGATION.test(c)) {
      return (
        `legacy Sigma v1 aggregation in the condition (${JSON.stringify(c.trim())}): the pipe/aggregation syntax was removed in Sigma v2; ` +
        'express it as a correlation rule (event_count, value_count, value_sum, …) that references this rule'
      );
    }
  }
  if (Array.isArray(condition)) {
    return 'legacy Sigma v1 list of conditions: Sigma v2 takes one condition string (join them with "or")';
  }
  if (timeframe !== undefined) {
    return `legacy Sigma v1 'timeframe' (${JSON.stringify(timeframe)}) in the detection: Sigma v2 expresses time windows as a correlation rule's 'timespan'`;
  }
  return undefined;
}
