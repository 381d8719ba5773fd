/* Builders and helpers shared by this lib's specs (not exported from the lib). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AlertRecord, FindingRecord, OcsfDetectionFinding, Severity } from '@vigil/contracts';
import { ChdbStoreFactory, type ServiceStore } from '@vigil/store';
import { FINDINGS_MIGRATIONS, FINDINGS_DATABASE } from './migrations';

export function findingRecord(workspaceId: string, recordId: string, severityId = 3, time = Date.now()): FindingRecord {
  const finding: OcsfDetectionFinding = {
    class_uid: 2004,
    activity_id: 1,
    severity_id: severityId,
    time: Math.floor(time / 1000),
    finding_info: { uid: recordId.split(':')[0], title: `finding ${recordId}` },
  };
  return { workspaceId, recordId, findingUid: finding.finding_info.uid, severityId, time, finding };
}

export function alertRecord(workspaceId: string, id: string, severity: Severity, threats: string[]): AlertRecord {
  return {
    workspaceId,
    severity,
    time: Date.now(),
    alert: {
      id,
      eventType: 'dns',
      threats,
      wisdom: { flags: ['c2'] },
      event: { ts: new Date().toISOString(), srcIP: '10.0.0.1', query: 'example.com' },
      detections: [],
      mitreAttack: [],
    },
  };
}

/** The record id a served finding came from (the builders put it in the title). */
export function servedId(finding: OcsfDetectionFinding): string {
  return finding.finding_info.title.replace(/^finding /, '');
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface TempStore {
  store: ServiceStore;
  /** A second engine connection to the same data, as a separate writer would have; closed by close(). */
  openWriterStore(): Promise<ServiceStore>;
  close(): Promise<void>;
}

/** A real embedded ClickHouse in a fresh temporary directory, with the findings schema applied. */
export async function openTempFindingsStore(): Promise<TempStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-findings-'));
  const factory = new ChdbStoreFactory(dir);
  const store = await factory.open(FINDINGS_DATABASE, FINDINGS_MIGRATIONS);
  const writerFactory = new ChdbStoreFactory(dir);
  return {
    store,
    openWriterStore: () => writerFactory.open(FINDINGS_DATABASE, FINDINGS_MIGRATIONS),
    close: async () => {
      await writerFactory.close();
      await factory.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
