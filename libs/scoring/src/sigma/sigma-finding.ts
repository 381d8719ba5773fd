import type { FindingRecord } from '@vigil/contracts';
import type { SigmaMeta } from '@vigil/sigma';

const isHttpUrl = (s: string) => /^https?:\/\/\S+$/i.test(s);

/**
 * Adds what the finding builder does not know about a customer rule: its description on the analytic, the
 * first reference as `finding_info.src_url`, and the rule's metadata under `unmapped.sigma` — including
 * `author`, which the SigmaHQ rules' licence (DRL 1.1) requires to be kept with every match.
 */
export function decorateSigmaFinding(record: FindingRecord, meta: SigmaMeta): void {
  const info = record.finding.finding_info as Record<string, unknown>;
  const analytic = info.analytic as Record<string, unknown> | undefined;
  if (analytic && meta.description) analytic.desc = meta.description;
  const url = meta.references.find(isHttpUrl);
  if (url !== undefined) info.src_url = url;
  const sigma: Record<string, unknown> = { id: meta.id, title: meta.title, references: meta.references, tags: meta.tags };
  for (const key of ['name', 'author', 'level', 'status', 'date', 'modified', 'description'] as const) {
    if (meta[key] !== undefined) sigma[key] = meta[key];
  }
  if (meta.falsepositives.length) sigma.falsepositives = meta.falsepositives;
  record.finding.unmapped = { sigma };
}
