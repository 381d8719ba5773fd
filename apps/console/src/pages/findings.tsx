import { useCallback, useEffect, useMemo, useState } from 'react';
import { call, query } from '../api/client';
import type { Finding, FindingsPage as Page } from '../api/types';
import { ErrorMessage, formatTime, Notice } from '../components/messages';
import { FindingDetail } from './finding-detail';
import { detectionsOf, EMPTY_FILTERS, findingUid, hostOf, matches, mergeFindings, newestFirst, type FindingFilters } from './findings-model';

const RANGES = [
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];
const SEVERITIES = ['any', '1 informational', '2 low', '3 medium', '4 high', '5 critical'];
const ROWS_PER_PAGE = 25;

/**
 * The findings explorer: findings are fetched from the findings API by its bookmarks (each call continues where
 * the last ended, so "Check for new findings" fetches only what is new), kept at their latest version, filtered
 * here and listed newest first.
 */
export function FindingsPage() {
  const [range, setRange] = useState('24h');
  const [filters, setFilters] = useState<FindingFilters>(EMPTY_FILTERS);
  const [known, setKnown] = useState<Map<string, Finding>>(new Map());
  const [follow, setFollow] = useState<string | undefined>(undefined);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [withheld, setWithheld] = useState(false);

  const fetchFrom = useCallback(
    async (bookmark: string | undefined, base: Map<string, Finding>) => {
      setBusy(true);
      setError(null);
      try {
        const page = await call<Page>('GET', `findings${query({ maxAge: range, follow: bookmark })}`);
        setKnown(mergeFindings(base, page.records));
        setFollow(page.follow);
        setMore(page.more);
        setWithheld(page.withheld === true);
      } catch (e) {
        setError(e);
      } finally {
        setBusy(false);
      }
    },
    [range],
  );

  useEffect(() => {
    setOffset(0);
    void fetchFrom(undefined, new Map());
  }, [fetchFrom]);

  const shown = useMemo(() => newestFirst([...known.values()].filter((f) => matches(f, filters))), [known, filters]);
  const visible = shown.slice(offset, offset + ROWS_PER_PAGE);
  const detail = selected ? known.get(selected) : undefined;
  const setFilter = (patch: Partial<FindingFilters>) => {
    setOffset(0);
    setFilters((f) => ({ ...f, ...patch }));
  };

  if (detail) return <FindingDetail finding={detail} onClose={() => setSelected(null)} />;

  return (
    <section aria-labelledby="findings-title">
      <h1 id="findings-title">Findings</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter findings">
        <label>
          Time range
          <select value={range} onChange={(e) => setRange(e.target.value)}>
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Minimum severity
          <select value={filters.minSeverity} onChange={(e) => setFilter({ minSeverity: Number(e.target.value) })}>
            {SEVERITIES.map((label, value) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Detection
          <input name="detection" value={filters.detection} onChange={(e) => setFilter({ detection: e.target.value })} placeholder="e.g. dns-tunnel" />
        </label>
        <label>
          Host
          <input name="host" value={filters.host} onChange={(e) => setFilter({ host: e.target.value })} placeholder="IP address" />
        </label>
        <label>
          Search
          <input name="text" type="search" value={filters.text} onChange={(e) => setFilter({ text: e.target.value })} />
        </label>
      </form>
      <p className="toolbar">
        <button type="button" onClick={() => fetchFrom(follow, known)} disabled={busy}>
          {more ? 'Load more findings' : 'Check for new findings'}
        </button>{' '}
        <span role="status">
          {busy ? 'Loading…' : `${shown.length} of ${known.size} findings loaded match${more ? '; more are waiting' : ''}.`}
        </span>
      </p>
      <ErrorMessage error={error} />
      {withheld && <Notice>This API key is not activated yet: findings are withheld until an operator activates it.</Notice>}
      {visible.length === 0 ? (
        <Notice>No findings match.</Notice>
      ) : (
        <div className="table-wrap">
          <table className="findings">
            <caption className="visually-hidden">Findings, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Severity</th>
                <th scope="col">Title</th>
                <th scope="col">Host</th>
                <th scope="col">Detections</th>
                <th scope="col">Events</th>
              </tr>
            </thead>
            <tbody>
              {visible.map((finding) => (
                <tr key={findingUid(finding)}>
                  <td>{formatTime(finding.time)}</td>
                  <td>
                    <span className={`severity severity-${finding.severity_id}`}>{finding.severity ?? finding.severity_id}</span>
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => setSelected(findingUid(finding))}>
                      {finding.finding_info.title}
                    </button>
                  </td>
                  <td>
                    <a href={`#/hosts/${encodeURIComponent(hostOf(finding))}`}>{hostOf(finding)}</a>
                  </td>
                  <td>{detectionsOf(finding).join(', ')}</td>
                  <td>{finding.count ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Finding pages">
        <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - ROWS_PER_PAGE))}>
          Newer
        </button>
        <span>
          {shown.length === 0 ? 0 : offset + 1}–{Math.min(shown.length, offset + ROWS_PER_PAGE)} of {shown.length}
        </span>
        <button type="button" className="secondary" disabled={offset + ROWS_PER_PAGE >= shown.length} onClick={() => setOffset(offset + ROWS_PER_PAGE)}>
          Older
        </button>
      </nav>
    </section>
  );
}
