/**
 * Suspicious TLS servers through the whole engine (gateway parser included): the C2-like case, look-alike
 * variations of it, and the benign cases that must stay silent (one session to a self-signed appliance, a
 * self-signed appliance polled all day, generated normal TLS).
 *
 * Alone: node -r ./tools/register.cjs tools/eval/tls.ts [<shared dir>]
 */
import * as path from 'node:path';
import type { TlsEvent } from '@vigil/contracts';
import { sharedDir, tlsEvents } from '@vigil/testing';
import type { EvalSection } from './table';

const DAY = 86_400_000;

interface TlsCase {
  name: string;
  events: (t0: number) => TlsEvent[];
  /** Whether `tls_suspicious_server` must fire. */
  fires: boolean;
}

const selfSigned = (cn: string, t0: number, days: number) => ({ subject: `CN=${cn}`, issuer: `CN=${cn}`, validFrom: new Date(t0 - DAY).toISOString(), validTo: new Date(t0 + (days - 1) * DAY).toISOString() });
const sessions = (n: number, everyMs: number, t0: number, make: (i: number) => Partial<TlsEvent>): TlsEvent[] =>
  Array.from({ length: n }, (_, i) => ({ ts: new Date(t0 + i * everyMs).toISOString(), srcIP: '10.60.0.5', ...make(i) }));

export const TLS_CASES: TlsCase[] = [
  {
    name: "issue: 20 sessions to one external IP on 50050/8443, self-signed CN=localhost valid 2 days, rotating JA3",
    fires: true,
    events: (t0) => sessions(20, 45_000, t0, (i) => ({ destIP: '203.0.113.50', destPort: i % 2 === 0 ? 50050 : 8443, ...selfSigned('localhost', t0, 2), ja3: `${i.toString(16).padStart(2, '0')}${'c'.repeat(30)}` })),
  },
  {
    name: 'C2 on 443: 6 sessions, self-signed certificate for an IP address, valid 3 days',
    fires: true,
    events: (t0) => sessions(6, 60_000, t0, () => ({ destIP: '45.77.10.20', destPort: 443, ...selfSigned('45.77.10.20', t0, 3) })),
  },
  {
    name: 'C2 with the OpenSSL default organisation on port 4444, sessions every 5 min',
    fires: true,
    events: (t0) => sessions(5, 300_000, t0, () => ({ destIP: '45.77.10.21', destPort: 4444, subject: '/C=AU/ST=Some-State/O=Internet Widgits Pty Ltd', issuer: '/C=AU/ST=Some-State/O=Internet Widgits Pty Ltd' })),
  },
  {
    name: 'C2 check-ins: 5 sessions a minute apart to a self-signed server named under an abused TLD (CN=portal-login.xyz) on 443',
    fires: true,
    events: (t0) => sessions(5, 60_000, t0, () => ({ destIP: '45.77.10.25', destPort: 443, subject: 'CN=portal-login.xyz', issuer: 'CN=portal-login.xyz' })),
  },
  {
    name: "3 sessions to a self-signed server with a public name on 443, client JA3 of the intel seed's Cobalt Strike entry",
    fires: true,
    events: (t0) => sessions(3, 60_000, t0, () => ({ destIP: '45.77.10.26', destPort: 443, ...selfSigned('update-srv.net', t0, 365), ja3: '724dedf93fb5a3636a0f1ee8fcec8801' })),
  },
  {
    name: 'one session to a self-signed server named under an abused TLD (CN=portal-login.xyz) on 443',
    fires: false,
    events: (t0) => sessions(1, 0, t0, () => ({ destIP: '45.77.10.27', destPort: 443, subject: 'CN=portal-login.xyz', issuer: 'CN=portal-login.xyz' })),
  },
  {
    name: 'the same server with an ordinary browser JA3: 3 sessions to a self-signed server with a public name on 443',
    fires: false,
    events: (t0) => sessions(3, 60_000, t0, () => ({ destIP: '45.77.10.28', destPort: 443, ...selfSigned('update-srv.net', t0, 365), ja3: 'cd08e31494f9531f560d64c695473da9' })),
  },
  {
    name: 'one session to a self-signed intranet appliance on 443',
    fires: false,
    events: (t0) => sessions(1, 0, t0, () => ({ destIP: '192.168.10.2', destPort: 443, ...selfSigned('nas01', t0, 3650) })),
  },
  {
    name: 'one session to a self-signed CN=localhost server on the Internet',
    fires: false,
    events: (t0) => sessions(1, 0, t0, () => ({ destIP: '45.77.10.22', destPort: 8443, ...selfSigned('localhost', t0, 2) })),
  },
  {
    name: 'a self-signed appliance on the Internet (vendor cloud box), polled every minute for an hour',
    fires: false,
    events: (t0) => sessions(60, 60_000, t0, () => ({ destIP: '45.77.10.23', destPort: 443, ...selfSigned('gw.branch-office.example-corp.net', t0, 3650) })),
  },
  {
    name: "a service with a Let's Encrypt 6-day certificate on a custom port, every minute for an hour",
    fires: false,
    events: (t0) => sessions(60, 60_000, t0, () => ({ destIP: '45.77.10.24', destPort: 9443, subject: 'CN=api.short-lived.example.net', issuer: "CN=E7,O=Let's Encrypt,C=US", validFrom: new Date(t0 - DAY).toISOString(), validTo: new Date(t0 + 5 * DAY).toISOString() })),
  },
];

export const suspiciousTls: EvalSection = {
  name: 'suspicious TLS',
  async run(context) {
    const rows: (string | number)[][] = [];
    for (const c of TLS_CASES) {
      const { detections, alerts } = context.runEngine('tls', c.events(context.t0));
      const fired = detections.has('tls_suspicious_server');
      rows.push([c.name, fired ? `fires (${alerts} alerts)` : 'silent', [...detections].join(', ') || 'no findings', c.fires ? 'fires' : 'silent', fired === c.fires ? 'ok' : 'WRONG']);
    }
    const normal = tlsEvents(20_000, { hosts: 200, seed: 11, startTs: context.t0 });
    const { detections, alerts } = context.runEngine('tls', normal);
    rows.push([`generated normal TLS (${normal.length.toLocaleString('en-US')} sessions, 200 hosts)`, `${alerts} alerts`, [...detections].join(', ') || 'no findings', 'silent', alerts === 0 ? 'ok' : 'WRONG']);
    return [{
      title: 'Suspicious TLS servers (tls_suspicious_server, per host and destination IP:port)',
      columns: ['case', 'result', 'findings', 'goal', ''],
      rows,
      notes: ['The TLS event has no SNI field, so a certificate/SNI mismatch is not measured; a certificate naming no public host (localhost, an address, a single label) stands in for it.'],
    }];
  },
};

async function main(): Promise<void> {
  const { formatTable } = await import('./table');
  const { createContext } = await import('./context');
  const shared = process.argv[2] ?? sharedDir();
  const context = createContext({ sharedDir: path.resolve(shared), quick: true, workers: 1 });
  for (const table of await suspiciousTls.run(context)) console.log(`${formatTable(table)}\n`);
}

if (require.main === module) void main();
