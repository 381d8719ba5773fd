import { createHash } from 'node:crypto';
import type { SigmaMeta, SigmaSeverity } from '../types';
import { attackRefs } from './attack-tags';

const SEVERITY: Record<string, SigmaSeverity> = { informational: 1, low: 2, medium: 3, high: 4, critical: 5 };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** Metadata of any Sigma document; a document without `id` or `name` is identified by a digest of its content. */
export function readMeta(data: Record<string, unknown>): SigmaMeta {
  const tags = strings(data.tags);
  const level = str(data.level);
  const id = str(data.id) ?? str(data.name) ?? `sigma-${createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 32)}`;
  return {
    id,
    name: str(data.name),
    title: str(data.title) ?? '',
    description: str(data.description),
    level,
    // A rule without a level is treated as medium, the middle of the scale.
    severity: (level && SEVERITY[level]) || 3,
    status: str(data.status),
    author: str(data.author),
    date: str(data.date),
    modified: str(data.modified),
    references: strings(data.references),
    falsepositives: strings(data.falsepositives),
    tags,
    ...attackRefs(tags),
  };
}
