import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { metricsRegistry } from '@vigil/platform';
// Importing the services registers their metrics in the process's registry, as in a running Vigil.
import '@vigil/gateway';
import '@vigil/scoring';
import '@vigil/escalations';

const ROOT = path.resolve(__dirname, '../../../..');
const DASHBOARD = path.join(ROOT, 'deploy/grafana/vigil-dashboard.json');
const ALERTS = path.join(ROOT, 'deploy/prometheus/vigil-alerts.yml');
const VIGIL_METRIC = /\bvigil_[a-z0-9_]+\b/g;

/** Every series name /metrics can show: histograms as _bucket/_sum/_count, summaries as _sum/_count (and the base name). */
function exportedSeries(): Set<string> {
  const names = new Set<string>();
  for (const metric of metricsRegistry.getMetricsAsArray()) {
    const { name, type } = metric as unknown as { name: string; type: string };
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name + suffix);
    else names.add(name);
  }
  return names;
}

/** The PromQL expressions of the dashboard: every target and query variable. */
function dashboardExpressions(dashboard: any): string[] {
  const panels = (dashboard.panels as any[]).flatMap((p) => [p, ...(p.panels ?? [])]);
  const targets = panels.flatMap((p) => (p.targets ?? []).map((t: any) => String(t.expr)));
  const variables = (dashboard.templating?.list ?? []).filter((v: any) => v.type === 'query').map((v: any) => String(v.query?.query ?? v.query));
  return [...targets, ...variables];
}

const metricsIn = (expressions: string[]) => new Set(expressions.flatMap((e) => e.match(VIGIL_METRIC) ?? []));

/** What the issue asks both files to watch. */
const REQUIRED = [
  'vigil_events_received_total',
  'vigil_events_accepted_total',
  'vigil_events_rejected_total',
  'vigil_events_scored_total',
  'vigil_scoring_state_bytes',
  'vigil_scoring_state_budget_bytes',
  'vigil_scoring_state_evictions_total',
  'vigil_escalation_failed_total',
  'vigil_escalation_lag_seconds',
  'vigil_sigma_rules_quarantined',
];

describe('deploy/grafana/vigil-dashboard.json', () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8'));
  const expressions = dashboardExpressions(dashboard);

  it('is a dashboard whose panels all query Prometheus', () => {
    expect(dashboard.uid).toBe('vigil-overview');
    const panels = (dashboard.panels as any[]).filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(15);
    for (const panel of panels) {
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets) expect(target.expr).toMatch(VIGIL_METRIC);
    }
    const ids = (dashboard.panels as any[]).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('references only metrics that Vigil exports', () => {
    const exported = exportedSeries();
    const unknown = [...metricsIn(expressions)].filter((name) => !exported.has(name));
    expect(unknown).toEqual([]);
  });

  it('covers ingest, 5xx, latency, scoring lag, state memory, evictions, checkpoints, escalations, SFTP and quarantined rules', () => {
    const used = metricsIn(expressions);
    for (const name of [...REQUIRED, 'vigil_http_requests_total', 'vigil_http_request_duration_seconds_bucket', 'vigil_scoring_state_keys', 'vigil_scoring_checkpoint_seconds_bucket', 'vigil_sftp_uploads_total']) {
      expect([name, used.has(name)]).toEqual([name, true]);
    }
    expect(expressions.some((e) => /status=~"5\.\."/.test(e))).toBe(true);
  });
});

describe('deploy/prometheus/vigil-alerts.yml', () => {
  const rules = parse(fs.readFileSync(ALERTS, 'utf8'));

  it('has the shape of Prometheus rule groups: groups[].rules[] with alert, expr, for, labels.severity, annotations.summary', () => {
    expect(Array.isArray(rules.groups)).toBe(true);
    const groupNames = new Set<string>();
    const alertNames = new Set<string>();
    for (const group of rules.groups) {
      expect(typeof group.name).toBe('string');
      expect(groupNames.has(group.name)).toBe(false);
      groupNames.add(group.name);
      expect(group.rules.length).toBeGreaterThan(0);
      for (const rule of group.rules) {
        expect(Object.keys(rule).sort()).toEqual(['alert', 'annotations', 'expr', 'for', 'labels']);
        expect(rule.alert).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
        expect(alertNames.has(rule.alert)).toBe(false);
        alertNames.add(rule.alert);
        expect(typeof rule.expr).toBe('string');
        expect(rule.expr.trim()).not.toBe('');
        expect(rule.for).toMatch(/^\d+[smh]$/);
        expect(['critical', 'warning', 'info']).toContain(rule.labels.severity);
        expect(typeof rule.annotations.summary).toBe('string');
        expect(rule.annotations.summary.length).toBeGreaterThan(10);
      }
    }
  });

  it('references only metrics that Vigil exports, and watches what the issue asks for', () => {
    const expressions = rules.groups.flatMap((g: any) => g.rules.map((r: any) => String(r.expr)));
    const used = metricsIn(expressions);
    const exported = exportedSeries();
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
    for (const name of [...REQUIRED, 'vigil_http_requests_total', 'vigil_sftp_uploads_total']) expect([name, used.has(name)]).toEqual([name, true]);
  });

  it('is checked against the real registry (a misspelt name would be caught)', () => {
    const exported = exportedSeries();
    expect(exported.has('vigil_http_request_duration_seconds_bucket')).toBe(true);
    expect(exported.has('vigil_http_request_duration_seconds')).toBe(false);
    expect(exported.has('vigil_process_resident_memory_bytes')).toBe(true);
    expect(exported.has('vigil_events_scored_total')).toBe(true);
  });
});
