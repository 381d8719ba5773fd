import { Counter, Gauge, Histogram } from 'prom-client';
import type { StateUsageSource } from './engines/engine-set';
import { metricsRegistry, observeSinceAppended, PIPELINE_DELAY_BUCKETS, scoringBacklog } from '@vigil/platform';

const scored = new Counter({ name: 'vigil_events_scored_total', help: 'Telemetry events scored', registers: [metricsRegistry] });
const findings = new Counter({ name: 'vigil_finding_records_total', help: 'Finding records (creates and updates) emitted', registers: [metricsRegistry] });
const alerts = new Counter({ name: 'vigil_alerts_total', help: 'Legacy alerts emitted', registers: [metricsRegistry] });

const checkpoints = new Histogram({
  name: 'vigil_scoring_checkpoint_seconds',
  help: 'Time to snapshot, compress and durably publish one partition\'s detection state',
  buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});
const snapshotBytes = new Histogram({
  name: 'vigil_scoring_snapshot_bytes',
  help: 'Compressed size of one partition\'s detection-state snapshot',
  buckets: [1e3, 1e4, 1e5, 1e6, 4e6, 16e6, 64e6],
  registers: [metricsRegistry],
});
const rebuilds = new Counter({
  name: 'vigil_scoring_engine_rebuilds_total',
  help: 'Partition engines (re)built: from a snapshot (take-over, restart) or empty',
  labelNames: ['from'],
  registers: [metricsRegistry],
});

const scoringDelay = new Histogram({
  name: 'vigil_scoring_delay_seconds',
  help: 'Time from a telemetry record\'s append to the events topic until its events are scored and their findings and alerts published (queueing included)',
  buckets: PIPELINE_DELAY_BUCKETS,
  registers: [metricsRegistry],
});

export const stateMetrics = {
  checkpoint(bytes: number, ms: number): void {
    checkpoints.observe(ms / 1000);
    snapshotBytes.observe(bytes);
  },
  rebuild(from: 'snapshot' | 'empty'): void {
    rebuilds.inc({ from });
  },
};

export const scoringMetrics = {
  record(events: number, findingCount: number, alertCount: number): void {
    scored.inc(events);
    findings.inc(findingCount);
    alerts.inc(alertCount);
  },
  /** `appendedMs`: when each record whose results were just published was appended to the events topic (epoch ms). */
  delays(appendedMs: readonly number[], nowMs = Date.now()): void {
    observeSinceAppended(scoringDelay, appendedMs, nowMs);
  },
};

const quarantinedRules = new Gauge({
  name: 'vigil_sigma_rules_quarantined',
  help: 'Customer Sigma rule documents this scoring engine could not load (compile error, budget, exception), over all workspaces',
  registers: [metricsRegistry],
});
const quarantines = new Counter({
  name: 'vigil_sigma_rule_quarantines_total',
  help: 'Customer Sigma rule documents quarantined, by cause (compile, budget, exception)',
  labelNames: ['cause'],
  registers: [metricsRegistry],
});

export const sigmaRuleMetrics = {
  /** How many documents are quarantined now, over all workspaces. */
  quarantinedNow(count: number): void {
    quarantinedRules.set(count);
  },
  quarantined(cause: 'compile' | 'budget' | 'exception'): void {
    quarantines.inc({ cause });
  },
};

/** The budget whose usage the state gauges report (the process's scoring consumer sets it). */
let reportedBudget: StateUsageSource | undefined;

new Gauge({
  name: 'vigil_scoring_state_bytes',
  help: 'Estimated heap held by detection state, per detection (all partitions of this process)',
  labelNames: ['detection'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [detection, usage] of Object.entries(reportedBudget?.usage() ?? {})) this.set({ detection }, usage.bytes);
  },
});
new Gauge({
  name: 'vigil_scoring_state_keys',
  help: 'Keys held by detection state, per detection (all partitions of this process)',
  labelNames: ['detection'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [detection, usage] of Object.entries(reportedBudget?.usage() ?? {})) this.set({ detection }, usage.keys);
  },
});
new Counter({
  name: 'vigil_scoring_state_evictions_total',
  help: 'Keys of detection state evicted by the memory budget (least recently active first), per detection',
  labelNames: ['detection'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [detection, usage] of Object.entries(reportedBudget?.usage() ?? {})) this.inc({ detection }, usage.evictions);
  },
});
new Gauge({
  name: 'vigil_scoring_state_budget_bytes',
  help: 'The detection-state memory budget of this process (VIGIL_SCORING_MEMORY_MB)',
  registers: [metricsRegistry],
  collect() {
    this.set(reportedBudget?.capacityBytes ?? 0);
  },
});

new Gauge({
  name: 'vigil_scoring_thread_heap_bytes',
  help: 'V8 heap of each scoring worker thread (used and total), reported at most once a second',
  labelNames: ['thread', 'kind'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    (reportedBudget?.threadHeaps() ?? []).forEach((heap, i) => {
      this.set({ thread: String(i + 1), kind: 'used' }, heap.usedBytes);
      this.set({ thread: String(i + 1), kind: 'total' }, heap.totalBytes);
    });
  },
});

new Gauge({
  name: 'vigil_scoring_backlog_events',
  help: 'Events this process accepted that its scoring engine has not scored yet',
  registers: [metricsRegistry],
  collect() {
    this.set(scoringBacklog.backlogEvents);
  },
});
new Counter({
  name: 'vigil_ingest_shed_total',
  help: 'Telemetry bodies refused with 429 because scoring in this process stayed further behind than VIGIL_SCORING_BACKLOG_MS for VIGIL_SCORING_ADMISSION_WAIT_MS',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    this.inc(scoringBacklog.shedCount);
  },
});
new Counter({
  name: 'vigil_ingest_admission_waited_total',
  help: 'Telemetry bodies let in after waiting for scoring in this process to make room',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    this.inc(scoringBacklog.waitedCount);
  },
});
new Gauge({
  name: 'vigil_ingest_admission_waiting',
  help: 'Telemetry bodies waiting now for scoring in this process to make room',
  registers: [metricsRegistry],
  collect() {
    this.set(scoringBacklog.waitingCount);
  },
});

export function reportStateBudget(budget: StateUsageSource): void {
  reportedBudget = budget;
}
