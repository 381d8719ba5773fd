import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, call } from '../api/client';
import type { CustomerRules, DetectionsBadRequest, DetectionsUpload } from '../api/types';
import { ErrorMessage, formatTime, Notice } from '../components/messages';

type UploadResult = { ok: true; body: DetectionsUpload } | { ok: false; message: string; body?: DetectionsBadRequest };

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The workspace's customer Sigma rules: list, and upload a zip (merge or replace, optionally a dry run). */
export function RulesPage() {
  const [rules, setRules] = useState<CustomerRules['rules']>([]);
  const [error, setError] = useState<unknown>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const [dryRun, setDryRun] = useState(false);
  const [result, setResult] = useState<UploadResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);

  const reload = useCallback(() => {
    call<CustomerRules>('GET', 'rules').then((r) => setRules(r.rules), setError);
  }, []);
  useEffect(reload, [reload]);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setResult(null);
    setError(null);
    try {
      const zip = toBase64(await file.arrayBuffer());
      setResult({ ok: true, body: await call<DetectionsUpload>('POST', 'rules', { zip, mode, dryRun }) });
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) setResult({ ok: false, message: e.message, body: e.body as DetectionsBadRequest });
      else setError(e);
    } finally {
      setBusy(false);
      reload();
    }
  };

  const remove = async (id: string) => {
    setConfirming(null);
    setError(null);
    try {
      await call('POST', 'rules/delete', { id });
    } catch (e) {
      setError(e);
    }
    reload();
  };

  const errors = result && !result.ok ? result.body?.validationResult?.errors ?? [] : [];
  return (
    <section aria-labelledby="rules-title">
      <h1 id="rules-title">Sigma rules</h1>
      <form className="inline-form" onSubmit={upload} aria-label="Upload Sigma rules">
        <label>
          Rule archive (.zip)
          <input name="archive" type="file" accept=".zip,application/zip" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
        </label>
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as 'merge' | 'replace')}>
            <option value="merge">merge with the stored rules</option>
            <option value="replace">replace the stored rules</option>
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> dry run (validate only)
        </label>
        <button type="submit" disabled={busy || !file}>
          Upload
        </button>
      </form>
      <ErrorMessage error={error} />
      {result?.ok && <Notice>Accepted {result.body.accepted} rule(s){dryRun ? ' (dry run: nothing stored)' : ''}.</Notice>}
      {result && !result.ok && (
        <div className="upload-errors" role="alert">
          <p>{result.message}</p>
          {errors.length > 0 && (
            <ul>
              {errors.map((e, i) => (
                <li key={i}>
                  <code>{e.fileName}</code>: {e.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <h2>Stored rules</h2>
      {rules.length === 0 ? (
        <Notice>This workspace has no customer rules.</Notice>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Stored rules</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Id</th>
                <th scope="col">Kind</th>
                <th scope="col">Level</th>
                <th scope="col">File</th>
                <th scope="col">State</th>
                <th scope="col">Updated</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.id}>
                  <td>{rule.title}</td>
                  <td>
                    <code>{rule.id}</code>
                  </td>
                  <td>{rule.kind}</td>
                  <td>{rule.level ?? ''}</td>
                  <td>{rule.fileName}</td>
                  <td>
                    {rule.state}
                    {rule.reason ? `: ${rule.reason}` : ''}
                  </td>
                  <td>{formatTime(rule.updatedAt)}</td>
                  <td>
                    {confirming === rule.id ? (
                      <>
                        <button type="button" className="danger" onClick={() => remove(rule.id)}>
                          Confirm delete<span className="visually-hidden"> of rule {rule.title}</span>
                        </button>{' '}
                        <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                          Keep
                        </button>
                      </>
                    ) : (
                      <button type="button" className="danger" onClick={() => setConfirming(rule.id)}>
                        Delete<span className="visually-hidden"> rule {rule.title}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
