import { useEffect, useState } from 'react';
import { call } from '../api/client';
import type { WorkspaceStatus } from '../api/types';
import { ErrorMessage, formatTime, Notice } from '../components/messages';

const LEVELS: Record<number, string> = { 1: 'info', 2: 'warning', 3: 'error' };

/** Operators: the account status of each workspace, as its newest usable key would see it. */
export function StatusPage() {
  const [rows, setRows] = useState<WorkspaceStatus[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    call<{ workspaces: WorkspaceStatus[] }>('GET', 'workspaces').then((r) => setRows(r.workspaces), setError);
  }, []);
  return (
    <section aria-labelledby="status-title">
      <h1 id="status-title">Account status</h1>
      <ErrorMessage error={error} />
      {rows?.length === 0 && <Notice>No workspaces yet.</Notice>}
      <div className="cards">
        {rows?.map((row) => (
          <article key={row.workspaceId} className="card" aria-labelledby={`ws-${row.workspaceId}`}>
            <h2 id={`ws-${row.workspaceId}`}>{row.workspaceName}</h2>
            <dl>
              <dt>Workspace id</dt>
              <dd>
                <code>{row.workspaceId}</code>
              </dd>
              <dt>Keys</dt>
              <dd>{row.keys}</dd>
              <dt>Registered</dt>
              <dd>{row.status.registered ? 'yes' : 'no'}</dd>
              <dt>Expired</dt>
              <dd>{row.status.expired ? 'yes' : 'no'}</dd>
              <dt>Expiry</dt>
              <dd>{formatTime(row.status.expirationDate)}</dd>
              <dt>Endpoints seen today</dt>
              <dd>{row.status.endpointsSeenToday}</dd>
            </dl>
            {row.status.messages.length > 0 && (
              <ul className="messages">
                {row.status.messages.map((m, i) => (
                  <li key={i} className={`level-${LEVELS[m.level] ?? 'info'}`}>
                    {LEVELS[m.level] ?? 'info'}: {m.body}
                  </li>
                ))}
              </ul>
            )}
          </article>
        ))}
      </div>
    </section>
  );
}
