import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ApiError, call, setCsrfToken } from './api/client';
import type { Role, SessionInfo } from './api/types';
import { useHashRoute } from './components/hash-route';
import { AlertsPage } from './pages/alerts';
import { DictionariesPage } from './pages/dictionaries';
import { ExplainPage } from './pages/explain';
import { FindingsPage } from './pages/findings';
import { HostPage } from './pages/host';
import { KeysPage } from './pages/keys';
import { OverviewPage } from './pages/overview';
import { RulesPage } from './pages/rules';
import { SignInPage } from './pages/sign-in';
import { StatusPage } from './pages/status';

interface PageEntry {
  route: string;
  label: string;
  render: () => ReactNode;
}

const PAGES: Record<Role, PageEntry[]> = {
  operator: [
    { route: 'keys', label: 'API keys', render: () => <KeysPage /> },
    { route: 'status', label: 'Account status', render: () => <StatusPage /> },
  ],
  analyst: [
    { route: 'overview', label: 'Overview', render: () => <OverviewPage /> },
    { route: 'findings', label: 'Findings', render: () => <FindingsPage /> },
    { route: 'hosts', label: 'Hosts', render: () => <HostPage /> },
    { route: 'alerts', label: 'Alerts', render: () => <AlertsPage /> },
    { route: 'rules', label: 'Sigma rules', render: () => <RulesPage /> },
    { route: 'explain', label: 'Explain', render: () => <ExplainPage /> },
    { route: 'dictionaries', label: 'Dictionaries', render: () => <DictionariesPage /> },
  ],
};

export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [route, navigate] = useHashRoute();

  const adopt = useCallback((info: SessionInfo | null) => {
    setCsrfToken(info?.csrfToken ?? '');
    setSession(info);
  }, []);

  useEffect(() => {
    call<SessionInfo>('GET', 'session').then(adopt, (error) => {
      if (error instanceof ApiError && error.status === 401) adopt(null);
      else adopt(null);
    });
  }, [adopt]);

  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) return <SignInPage onSignedIn={(info) => { adopt(info); navigate(PAGES[info.role][0].route); }} />;

  const pages = PAGES[session.role];
  const current = pages.find((p) => route.startsWith(p.route)) ?? pages[0];
  const signOut = async () => {
    await call('POST', 'sign-out').catch(() => undefined);
    adopt(null);
  };

  return (
    <>
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Vigil</span>
        <nav aria-label="Console pages">
          <ul>
            {pages.map((page) => (
              <li key={page.route}>
                <a href={`#/${page.route}`} aria-current={page === current ? 'page' : undefined}>
                  {page.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          {session.role === 'operator' ? 'Operator' : `Analyst · workspace ${session.workspaceId ?? ''}`}
        </span>
        <button type="button" className="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {current.render()}
      </main>
    </>
  );
}
