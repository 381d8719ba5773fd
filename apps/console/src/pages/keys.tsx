import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { call } from '../api/client';
import type { CreatedKey, KeyRow } from '../api/types';
import { ErrorMessage, formatTime, Notice } from '../components/messages';

/** Operators: create (the key is shown once), list, activate, revoke and set the expiry of API keys. */
export function KeysPage() {
  const [keys, setKeys] = useState<KeyRow[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [workspace, setWorkspace] = useState('default');
  const [inactive, setInactive] = useState(false);
  const [expiresDays, setExpiresDays] = useState('');

  const reload = useCallback(() => {
    call<{ keys: KeyRow[] }>('GET', 'keys').then((r) => setKeys(r.keys), setError);
  }, []);
  useEffect(reload, [reload]);

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      reload();
    } catch (e) {
      setError(e);
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const days = expiresDays.trim() === '' ? undefined : Number(expiresDays);
      setCopied(false);
      setCreated(await call<CreatedKey>('POST', 'keys', { workspace, inactive, ...(days !== undefined ? { expiresInDays: days } : {}) }));
    });
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      setError(new Error('The browser refused clipboard access: select the key and copy it by hand.'));
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <form className="inline-form" onSubmit={create} aria-label="Create an API key">
        <label>
          Workspace
          <input name="workspace" value={workspace} onChange={(e) => setWorkspace(e.target.value)} required pattern="[A-Za-z0-9_.\-]{1,64}" />
        </label>
        <label>
          Expires in (days, optional)
          <input name="expiresDays" type="number" min={1} max={3650} value={expiresDays} onChange={(e) => setExpiresDays(e.target.value)} />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={inactive} onChange={(e) => setInactive(e.target.checked)} /> create inactive
        </label>
        <button type="submit">Create key</button>
      </form>
      {created && (
        <div className="created-key" role="status">
          <p>
            New key for workspace <strong>{created.workspaceName}</strong>. It is shown only now: copy it and keep it safe.
          </p>
          <code data-testid="new-key">{created.key}</code>{' '}
          <button type="button" onClick={copy}>
            {copied ? 'Copied' : 'Copy key'}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <ErrorMessage error={error} />
      {keys.length === 0 ? (
        <Notice>No keys yet.</Notice>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Prefix</th>
                <th scope="col">Workspace</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <KeyRowView key={key.keyHash} row={key} act={act} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function KeyRowView({ row, act }: { row: KeyRow; act: (action: () => Promise<unknown>) => Promise<void> }) {
  const [expiry, setExpiry] = useState(row.expiresAt ? row.expiresAt.slice(0, 10) : '');
  const expired = row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now();
  const state = row.status === 'active' && expired ? 'expired' : row.status;
  const id = `expiry-${row.keyHash.slice(0, 12)}`;
  return (
    <tr data-prefix={row.prefix}>
      <td>
        <code>{row.prefix}</code>
      </td>
      <td>{row.workspaceName}</td>
      <td>
        <span className={`state state-${state}`}>{state}</span>
      </td>
      <td>{formatTime(row.createdAt)}</td>
      <td>{formatTime(row.lastUsedAt)}</td>
      <td>
        <label htmlFor={id} className="visually-hidden">
          Expiry date of key {row.prefix}
        </label>
        <input id={id} type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} />{' '}
        <button type="button" className="secondary" onClick={() => act(() => call('POST', `keys/${encodeURIComponent(row.keyHash)}/expiry`, { expiresAt: expiry ? `${expiry}T23:59:59.000Z` : null }))}>
          Set expiry<span className="visually-hidden"> of key {row.prefix}</span>
        </button>
      </td>
      <td className="actions">
        {row.status !== 'active' && (
          <button type="button" onClick={() => act(() => call('POST', `keys/${encodeURIComponent(row.keyHash)}/activate`))}>
            Activate<span className="visually-hidden"> key {row.prefix}</span>
          </button>
        )}
        {row.status !== 'revoked' && (
          <button type="button" className="danger" onClick={() => act(() => call('POST', `keys/${encodeURIComponent(row.keyHash)}/revoke`))}>
            Revoke<span className="visually-hidden"> key {row.prefix}</span>
          </button>
        )}
      </td>
    </tr>
  );
}
