import { useEffect, useState } from 'react';
import { call } from '../api/client';
import type { FlagsInventory, ThreatsInventory } from '../api/types';
import { ErrorMessage } from '../components/messages';

/** The threat and flag dictionaries that alerts refer to. */
export function DictionariesPage() {
  const [threats, setThreats] = useState<ThreatsInventory | null>(null);
  const [flags, setFlags] = useState<FlagsInventory | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    call<{ threats: ThreatsInventory; flags: FlagsInventory }>('GET', 'dictionaries').then((r) => {
      setThreats(r.threats);
      setFlags(r.flags);
    }, setError);
  }, []);
  return (
    <section aria-labelledby="dict-title">
      <h1 id="dict-title">Threat and flag dictionaries</h1>
      <ErrorMessage error={error} />
      <h2>Threats</h2>
      <pre className="raw" tabIndex={0} aria-label="Threat dictionary">
        {threats ? JSON.stringify(threats, null, 2) : 'Loading…'}
      </pre>
      <h2>Flags</h2>
      <pre className="raw" tabIndex={0} aria-label="Flag dictionary">
        {flags ? JSON.stringify(flags, null, 2) : 'Loading…'}
      </pre>
    </section>
  );
}
