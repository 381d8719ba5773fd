import { useEffect, useState } from 'react';
import { call } from '../api/client';
import type { Overview } from '../api/types';
import { BarChart } from '../components/bar-chart';
import { ErrorMessage, Notice } from '../components/messages';

const SEVERITY_NAMES: Record<string, string> = { '1': 'Informational', '2': 'Low', '3': 'Medium', '4': 'High', '5': 'Critical', '6': 'Fatal' };

/** The last 24 hours at a glance: findings per severity, per detection, per hour, the busiest hosts, and the ingest rate. */
export function OverviewPage() {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    call<Overview>('GET', 'overview').then(setOverview, setError);
  }, []);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview (last 24 hours)</h1>
      <ErrorMessage error={error} />
      {overview && (
        <>
          <p>
            {overview.total} finding(s){overview.truncated ? ' (only the newest were counted)' : ''}.
          </p>
          {overview.total === 0 && <Notice>No findings in the last 24 hours.</Notice>}
          <div className="charts">
            <BarChart title="Findings per severity" data={Object.entries(overview.bySeverity).map(([k, v]) => ({ label: SEVERITY_NAMES[k] ?? k, value: v }))} />
            <BarChart title="Findings per detection" data={Object.entries(overview.byDetection).map(([k, v]) => ({ label: k, value: v }))} />
            <BarChart title="Findings per hour" data={overview.byHour.map((h) => ({ label: h.hour, value: h.count }))} />
            <BarChart title="Top hosts" data={overview.topHosts.map((h) => ({ label: h.host, value: h.count }))} />
            <BarChart title="Events received per hour" data={overview.ingestPerHour.map((h) => ({ label: h.hour, value: h.events }))} />
          </div>
        </>
      )}
    </section>
  );
}
