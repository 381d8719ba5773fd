import { useState, type FormEvent } from 'react';
import type { Alert, Finding } from '../api/types';
import { usePaged } from '../api/use-paged';
import { useHashRoute } from '../components/hash-route';
import { ErrorMessage, formatTime, Notice } from '../components/messages';
import { alertHost, alertTime, AlertsTable, newestAlertsFirst } from './alerts';
import { hostOf, newestFirst } from './findings-model';

/** One host: its findings and alerts of the last 24 hours, on a timeline and as lists. */
export function HostPage() {
  const [route, navigate] = useHashRoute();
  const host = decodeURIComponent(route.split('/')[1] ?? '');
  const [draft, setDraft] = useState(host);
  const findings = usePaged<Finding>('findings', 'records', '24h');
  const alerts = usePaged<Alert>('alerts', 'alerts', '24h');
  const hostFindings = newestFirst(findings.items.filter((f) => host !== '' && hostOf(f) === host));
  const hostAlerts = newestAlertsFirst(alerts.items.filter((a) => host !== '' && alertHost(a) === host));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`hosts/${encodeURIComponent(draft.trim())}`);
  };
  return (
    <section aria-labelledby="host-title">
      <h1 id="host-title">Host {host}</h1>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Host address
          <input name="host" value={draft} onChange={(e) => setDraft(e.target.value)} required />
        </label>
        <button type="submit">Show host</button>
      </form>
      <ErrorMessage error={findings.error ?? alerts.error} />
      {host === '' ? (
        <Notice>Enter a host address, or follow a host link from the findings or alerts.</Notice>
      ) : (
        <>
          <Timeline findings={hostFindings} alerts={hostAlerts} />
          <h2>Findings ({hostFindings.length})</h2>
          {hostFindings.length === 0 ? (
            <Notice>No findings for this host in the last 24 hours.</Notice>
          ) : (
            <ul>
              {hostFindings.map((f) => (
                <li key={f.finding_info.uid}>
                  {formatTime(f.time)} · <strong>{f.severity ?? f.severity_id}</strong> · {f.finding_info.title}
                </li>
              ))}
            </ul>
          )}
          <h2>Alerts ({hostAlerts.length})</h2>
          <AlertsTable alerts={hostAlerts.slice(0, 200)} />
          <p className="notice">DHCP lease history is not served by the API yet, so it is not shown here.</p>
        </>
      )}
    </section>
  );
}

/** Findings (diamonds) and alerts (dots) along the last 24 hours. */
function Timeline({ findings, alerts }: { findings: Finding[]; alerts: Alert[] }) {
  const end = Date.now();
  const start = end - 86_400_000;
  const width = 960;
  const x = (ms: number) => 20 + ((Math.min(Math.max(ms, start), end) - start) / (end - start)) * (width - 40);
  return (
    <figure className="chart">
      <figcaption>Timeline (last 24 hours)</figcaption>
      <svg role="img" aria-label={`Timeline: ${findings.length} findings and ${alerts.length} alerts in the last 24 hours`} viewBox={`0 0 ${width} 70`} width="100%">
        <line x1={20} x2={width - 20} y1={35} y2={35} className="chart-axis" />
        {alerts.map((a, i) => (
          <circle key={`a${i}`} cx={x(Date.parse(alertTime(a)))} cy={48} r={4} className="chart-alert" />
        ))}
        {findings.map((f) => (
          <rect key={f.finding_info.uid} x={x(f.time * 1000) - 5} y={15} width={10} height={10} transform={`rotate(45 ${x(f.time * 1000)} 20)`} className="chart-finding" />
        ))}
        <text x={20} y={66} className="chart-label">
          {formatTime(start / 1000)}
        </text>
        <text x={width - 20} y={66} textAnchor="end" className="chart-label">
          now
        </text>
      </svg>
    </figure>
  );
}
