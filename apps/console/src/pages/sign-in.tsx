import { useState, type FormEvent } from 'react';
import { call } from '../api/client';
import type { Role, SessionInfo } from '../api/types';
import { ErrorMessage } from '../components/messages';

/** Operators sign in with the admin password (or admin token); analysts with a workspace API key. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [role, setRole] = useState<Role>('analyst');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await call<SessionInfo>('POST', 'sign-in', role === 'operator' ? { role, password: secret } : { role, apiKey: secret }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setSecret('');
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Vigil</h1>
      <form onSubmit={submit}>
        <fieldset>
          <legend>I am</legend>
          <label>
            <input type="radio" name="role" value="analyst" checked={role === 'analyst'} onChange={() => setRole('analyst')} /> an analyst (workspace API key)
          </label>
          <label>
            <input type="radio" name="role" value="operator" checked={role === 'operator'} onChange={() => setRole('operator')} /> an operator
          </label>
        </fieldset>
        <label htmlFor="secret">{role === 'operator' ? 'Admin password or admin token' : 'API key'}</label>
        <input id="secret" name="secret" type="password" autoComplete={role === 'operator' ? 'current-password' : 'off'} value={secret} onChange={(e) => setSecret(e.target.value)} required />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorMessage error={error} />
      </form>
    </main>
  );
}
