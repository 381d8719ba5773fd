import type { WorkspacePlaceholders } from '@vigil/contracts';
import type { ServiceStore } from '@vigil/store';

interface PlaceholdersRow {
  workspace_id: string;
  placeholders: string;
}

/** The rules service's record of each workspace's `expand` placeholders (stored beside its rules). */
export class PlaceholdersRepository {
  constructor(private readonly store: ServiceStore) {}

  async save(workspaceId: string, placeholders: WorkspacePlaceholders, version: number, updatedAt: string): Promise<void> {
    await this.store.client.insert({
      table: 'rules.workspace_placeholders',
      format: 'JSONEachRow',
      values: [{ workspace_id: workspaceId, placeholders: JSON.stringify(placeholders), updated_at: updatedAt.replace('T', ' ').replace('Z', ''), version }],
    });
  }

  /** The placeholders of one workspace ({} when none were ever configured). */
  async get(workspaceId: string): Promise<WorkspacePlaceholders> {
    return (await this.read(workspaceId)).get(workspaceId) ?? {};
  }

  /** Every workspace that has (or had) placeholders, with its current map. */
  async all(): Promise<Map<string, WorkspacePlaceholders>> {
    return this.read();
  }

  private async read(workspaceId?: string): Promise<Map<string, WorkspacePlaceholders>> {
    const result = await this.store.client.query({
      query: `SELECT workspace_id, placeholders FROM rules.workspace_placeholders FINAL
              ${workspaceId === undefined ? '' : 'WHERE workspace_id = {workspaceId:String}'} ORDER BY workspace_id`,
      query_params: workspaceId === undefined ? {} : { workspaceId },
      format: 'JSONEachRow',
    });
    const rows = await result.json<PlaceholdersRow>();
    return new Map(rows.map((row) => [row.workspace_id, JSON.parse(row.placeholders) as WorkspacePlaceholders]));
  }

  async maxVersion(): Promise<number> {
    const result = await this.store.client.query({ query: 'SELECT max(version) AS v FROM rules.workspace_placeholders', format: 'JSONEachRow' });
    const rows = await result.json<{ v: string | number }>();
    return Number(rows[0]?.v ?? 0);
  }
}
