import { useMemo, useState } from 'react';
import type { Alert } from '../api/types';
import { usePaged } from '../api/use-paged';
import { ErrorMessage, formatTime, Notice } from '../components/messages';

export function alertHost(alert: Alert): string {
  return (alert.event as { srcIP?: string }).srcIP ?? '';
}

export function alertTime(alert: Alert): string {
  return (alert.event as { ts?: string }).ts ?? '';
}

/** What an alert's event was about, in one line (as text). */
function subject(alert: Alert): string {
  const event = alert.event as Record<string, unknown>;
  return String(event.query ?? event.url ?? event.subject ?? event.destIP ?? '');
}

export function AlertsTable({ alerts }: { alerts: Alert[] }) {
  if (alerts.length === 0) return <Notice>No alerts.</Notice>;
  return (
    <div className="table-wrap">
      <table className="alerts">
        <caption className="visually-hidden">Alerts, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Host</th>
            <th scope="col">Type</th>
            <th scope="col">Threats</th>
            <th scope="col">Event</th>
          </tr>
        </thead>
        <tbody>
          {alerts.map((alert, i) => (
            <tr key={alert.id ?? i}>
              <td>{formatTime(alertTime(alert))}</td>
              <td>
                <a href={`#/hosts/${encodeURIComponent(alertHost(alert))}`}>{alertHost(alert)}</a>
              </td>
              <td>{alert.eventType}</td>
              <td>{alert.threats.join(', ')}</td>
              <td className="wrap">{subject(alert)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function newestAlertsFirst(alerts: Alert[]): Alert[] {
  return [...alerts].sort((a, b) => alertTime(b).localeCompare(alertTime(a)));
}

/** Alerts (the legacy view of what Vigil found): one row per scored event that raised a threat. */
export function AlertsPage() {
  const [host, setHost] = useState('');
  const paged = usePaged<Alert>('alerts', 'alerts', '24h');
  const shown = useMemo(() => newestAlertsFirst(paged.items.filter((a) => !host || alertHost(a).includes(host.trim()))), [paged.items, host]);
  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">Alerts (last 24 hours)</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter alerts">
        <label>
          Host
          <input name="host" value={host} onChange={(e) => setHost(e.target.value)} placeholder="IP address" />
        </label>
        <button type="button" onClick={paged.next} disabled={paged.busy}>
          {paged.more ? 'Load more alerts' : 'Check for new alerts'}
        </button>
      </form>
      <ErrorMessage error={paged.error} />
      <p role="status">{paged.busy ? 'Loading…' : `${shown.length} of ${paged.items.length} alerts loaded.`}</p>
      <AlertsTable alerts={shown.slice(0, 500)} />
    </section>
  );
}
