import { useEffect, useRef } from 'react';
import type { Finding } from '../api/types';
import { formatTime } from '../components/messages';
import { detectionsOf, hostOf } from './findings-model';

/** One finding: its explanation, detections, evidences, observables, ATT&CK techniques and the raw OCSF JSON. */
export function FindingDetail({ finding, onClose }: { finding: Finding; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const aggregated = (finding.enrichments ?? []).flatMap((e) => e.data?.aggregation?.key?.detections ?? []);
  const attacks = finding.finding_info.attacks ?? [];
  return (
    <section aria-labelledby="finding-title" className="finding-detail">
      <button type="button" className="secondary" onClick={onClose}>
        ← Back to findings
      </button>
      <h1 id="finding-title" tabIndex={-1} ref={heading}>
        {finding.finding_info.title}
      </h1>
      <dl className="facts">
        <dt>Severity</dt>
        <dd>{finding.severity ?? finding.severity_id}</dd>
        <dt>Host</dt>
        <dd>{hostOf(finding)}</dd>
        <dt>First seen</dt>
        <dd>{formatTime(finding.start_time)}</dd>
        <dt>Last seen</dt>
        <dd>{formatTime(finding.end_time)}</dd>
        <dt>Events</dt>
        <dd>{finding.count ?? '—'}</dd>
        <dt>Finding id</dt>
        <dd>
          <code>{finding.finding_info.uid}</code>
        </dd>
      </dl>
      <h2>Explanation</h2>
      <p>{finding.finding_info.desc ?? 'No description.'}</p>
      {aggregated.length > 0 && (
        <ul>
          {aggregated.map((d) => (
            <li key={`${d.id}|${d.key}`}>
              <strong>{d.id}</strong> on <code>{d.key}</code> (severity {d.severity}){d.observations?.length ? `: ${d.observations.join('; ')}` : ''}
            </li>
          ))}
        </ul>
      )}
      {aggregated.length === 0 && <p>Detections: {detectionsOf(finding).join(', ') || '—'}</p>}
      <h2>MITRE ATT&amp;CK</h2>
      {attacks.length === 0 ? (
        <p>No techniques.</p>
      ) : (
        <ul>
          {attacks.map((a, i) => (
            <li key={i}>
              {a.technique?.uid} {a.technique?.name}
              {a.tactic?.name ? ` (tactic: ${a.tactic.name})` : ''}
            </li>
          ))}
        </ul>
      )}
      <h2>Observables</h2>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Observables</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {(finding.observables ?? []).map((o, i) => (
              <tr key={i}>
                <td>{o.name}</td>
                <td>{o.type}</td>
                <td className="wrap">{o.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Evidences ({finding.evidences?.length ?? 0})</h2>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Evidences</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Type</th>
              <th scope="col">Source</th>
              <th scope="col">Query</th>
            </tr>
          </thead>
          <tbody>
            {(finding.evidences ?? []).slice(0, 200).map((e, i) => (
              <tr key={i}>
                <td>{formatTime(e.data?.ts)}</td>
                <td>{e.data?.type}</td>
                <td>{e.src_endpoint?.ip ?? e.data?.srcIP}</td>
                <td className="wrap">{e.query?.hostname ?? e.data?.body?.fqdn ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Raw OCSF JSON</h2>
      <pre className="raw" tabIndex={0} aria-label="Raw OCSF JSON of the finding">
        {JSON.stringify(finding, null, 2)}
      </pre>
    </section>
  );
}
