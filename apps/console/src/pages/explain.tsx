import { useState, type FormEvent } from 'react';
import { call } from '../api/client';
import { ErrorMessage } from '../components/messages';

interface Explained {
  text: string;
  explanation: { name: string; detections: { id: string; threat: string; severity: number }[] };
}

/** The engine's view of a domain name, computed by the engine's own code (as `vigil explain dns`). */
export function ExplainPage() {
  const [name, setName] = useState('');
  const [result, setResult] = useState<Explained | null>(null);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setResult(await call<Explained>('POST', 'explain', { name }));
    } catch (e) {
      setResult(null);
      setError(e);
    }
  };
  return (
    <section aria-labelledby="explain-title">
      <h1 id="explain-title">Explain a domain name</h1>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Domain name
          <input name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={253} placeholder="e.g. x7kq9w2p.example.com" />
        </label>
        <button type="submit">Explain</button>
      </form>
      <ErrorMessage error={error} />
      {result && (
        <>
          <h2>{result.explanation.name}</h2>
          <pre className="raw" tabIndex={0} aria-label="Explanation">
            {result.text}
          </pre>
        </>
      )}
    </section>
  );
}
