import type { CustomerRule, CustomerRuleKind } from '@vigil/contracts';
import type { ServiceStore } from '@vigil/store';

interface RuleRow {
  workspace_id: string;
  rule_id: string;
  kind: string;
  name: string;
  title: string;
  level: string;
  status: string;
  file_name: string;
  source: string;
  updated_at: string;
}

/** A rule with the workspace it belongs to. */
export interface StoredRule extends CustomerRule {
  workspaceId: string;
}

const toIso = (value: string) => new Date(value.replace(' ', 'T') + 'Z').toISOString();
const toClickHouse = (iso: string) => iso.replace('T', ' ').replace('Z', '');

/** The rules service's table: the system of record for customer Sigma rules. */
export class CustomerRulesRepository {
  constructor(private readonly store: ServiceStore) {}

  /** Writes new versions of rules (`deleted` true to remove them). */
  async save(workspaceId: string, rules: readonly CustomerRule[], version: number, deleted = false): Promise<void> {
    if (rules.length === 0) return;
    await this.store.client.insert({
      table: 'rules.customer_rules',
      format: 'JSONEachRow',
      values: rules.map((r) => ({
        workspace_id: workspaceId,
        rule_id: r.id,
        kind: r.kind,
        name: r.name ?? '',
        title: r.title,
        level: r.level,
        status: r.status,
        file_name: r.fileName,
        source: deleted ? '' : r.source,
        deleted: deleted ? 1 : 0,
        updated_at: toClickHouse(r.updatedAt),
        version,
      })),
    });
  }

  /** The current (not deleted) rules of one workspace, or of every workspace. */
  async current(workspaceId?: string): Promise<StoredRule[]> {
    const result = await this.store.client.query({
      query: `SELECT workspace_id, rule_id, kind, name, title, level, status, file_name, source, toString(updated_at) AS updated_at
              FROM rules.customer_rules FINAL
              WHERE deleted = 0 ${workspaceId === undefined ? '' : 'AND workspace_id = {workspaceId:String}'}
              ORDER BY workspace_id, rule_id`,
      query_params: workspaceId === undefined ? {} : { workspaceId },
      format: 'JSONEachRow',
    });
    return (await result.json<RuleRow>()).map((row) => ({
      workspaceId: row.workspace_id,
      id: row.rule_id,
      kind: row.kind as CustomerRuleKind,
      ...(row.name !== '' ? { name: row.name } : {}),
      title: row.title,
      level: row.level,
      status: row.status,
      fileName: row.file_name,
      source: row.source,
      updatedAt: toIso(row.updated_at),
    }));
  }

  /** Every workspace that ever had a rule (also those whose rules were all removed). */
  async workspaces(): Promise<string[]> {
    const result = await this.store.client.query({ query: 'SELECT DISTINCT workspace_id FROM rules.customer_rules ORDER BY workspace_id', format: 'JSONEachRow' });
    return (await result.json<{ workspace_id: string }>()).map((row) => row.workspace_id);
  }

  /** The highest version written so far (0 for an empty table), so versions stay monotonic across restarts. */
  async maxVersion(): Promise<number> {
    const result = await this.store.client.query({ query: 'SELECT max(version) AS v FROM rules.customer_rules', format: 'JSONEachRow' });
    const rows = await result.json<{ v: string | number }>();
    return Number(rows[0]?.v ?? 0);
  }
}
