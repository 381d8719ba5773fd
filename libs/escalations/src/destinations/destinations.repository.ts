import type { ServiceStore } from '@vigil/store';
import type { DestinationControlRecord } from './control-record';
import type { EscalationDestination } from './destination';

interface DestinationRow {
  destination_id: string;
  workspace_id: string;
  version: string | number;
  removed: number;
  spec: string;
}

/** The escalations table: the durable copy of every destination's latest state on this service's store. */
export class DestinationsRepository {
  constructor(private readonly store: ServiceStore) {}

  async save(records: readonly DestinationControlRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.store.client.insert({
      table: `${this.store.database}.destinations`,
      format: 'JSONEachRow',
      values: records.map((r) => ({
        destination_id: r.id,
        workspace_id: r.workspaceId,
        version: r.version,
        removed: r.removed ? 1 : 0,
        updated_at: new Date().toISOString().replace('T', ' ').replace('Z', ''),
        spec: r.removed || !r.destination ? '' : JSON.stringify(r.destination),
      })),
    });
  }

  /** The latest row of every destination, removed ones included (their versions matter). */
  async latest(): Promise<DestinationControlRecord[]> {
    const result = await this.store.client.query({
      query: `SELECT destination_id, workspace_id, version, removed, spec FROM ${this.store.database}.destinations FINAL ORDER BY destination_id`,
      format: 'JSONEachRow',
    });
    return (await result.json<DestinationRow>()).map((row) => ({
      v: 1,
      id: row.destination_id,
      workspaceId: row.workspace_id,
      version: Number(row.version),
      removed: Number(row.removed) === 1,
      ...(Number(row.removed) === 1 ? {} : { destination: JSON.parse(row.spec) as EscalationDestination }),
    }));
  }
}
