import type { Alert, AlertRecord, FindingRecord, OcsfDetectionFinding } from '@vigil/contracts';
import type { ServiceStore } from '@vigil/store';
import { RecordRepository, type PagingOptions } from './record-repository';
import { ALERTS_TABLE, FINDINGS_TABLE } from './record-tables';

/** Findings (`tlm.findings.v1` → GET /v1/findings): stored by FindingRecord.recordId, served as OCSF findings. */
export class FindingsRepository extends RecordRepository<FindingRecord, OcsfDetectionFinding> {
  constructor(store: ServiceStore, options?: PagingOptions) {
    super(store, FINDINGS_TABLE, options);
  }
}

/** Alerts (`tlm.alerts.v1` → GET /v1/alerts): stored by Alert.id, served as alerts. */
export class AlertsRepository extends RecordRepository<AlertRecord, Alert> {
  constructor(store: ServiceStore, options?: PagingOptions) {
    super(store, ALERTS_TABLE, options);
  }
}
