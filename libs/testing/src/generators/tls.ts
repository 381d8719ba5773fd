import type { TlsEvent } from '@vigil/contracts';
import { createRng } from '../prng';
import { HEX } from './alphabets';
import { checkCount } from './checks';
import { sessionHostname } from './hostnames';
import { ephemeralPort, hostPool, serviceAddress, type NetworkOptions } from './network';
import { seeded } from './seeded';
import { timeline, toEpochMs } from './timeline';

const CERT_ISSUERS: readonly string[] = [
  "CN=R3,O=Let's Encrypt,C=US",
  "CN=R11,O=Let's Encrypt,C=US",
  'CN=GTS CA 1C3,O=Google Trust Services LLC,C=US',
  'CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1,O=DigiCert Inc,C=US',
  'CN=Amazon RSA 2048 M02,O=Amazon,C=US',
  'CN=Microsoft Azure RSA TLS Issuing CA 04,O=Microsoft Corporation,C=US',
  'CN=Sectigo RSA Domain Validation Secure Server CA,O=Sectigo Limited,L=Salford,ST=Greater Manchester,C=GB',
];

/** Client hello fingerprints of a handful of common TLS stacks (made-up values of the right form). */
const JA3_CLIENTS: readonly string[] = [
  'cd08e31494f9531f560d64c695473da9',
  'b32309a26951912be7dba376398abc3b',
  '579ccef312d18482fc42e2b822ca2430',
  '3b5074b1b5d032e5620f69f9f700ff0e',
  '9e10692f1b7f78228b2d4e424db3a98c',
];
const JA3S_SERVERS: readonly string[] = [
  'f4febc55ea12b31ae17cfb7e614afda8',
  'eb1d94daa7e0344597e756a1fb6e7054',
  '15af977ce25de452b96affa2addb1036',
];

const DAY_MS = 86_400_000;

/** TLS handshakes with public services; the same hostname always presents the same certificate. */
export function tlsEvents(n: number, opts: NetworkOptions = {}): TlsEvent[] {
  checkCount(n);
  const rng = seeded('tls', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, opts);
  const start = toEpochMs(opts.startTs, 'startTs');
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    const hostname = sessionHostname(rng);
    const commonName = hostname.split('.').length > 2 && rng.chance(0.5) ? `*.${hostname.split('.').slice(1).join('.')}` : hostname;
    // Certificate facts derive from the name alone, so repeated handshakes agree.
    const cert = createRng(`cert:${commonName}`);
    const validFrom = start - cert.int(1, 60) * DAY_MS;
    const lifetimeDays = cert.pick([90, 90, 365, 397]);
    return {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      certHash: cert.string(HEX, 40),
      issuer: cert.pick(CERT_ISSUERS),
      subject: `CN=${commonName}`,
      validFrom: new Date(validFrom).toISOString(),
      validTo: new Date(validFrom + lifetimeDays * DAY_MS).toISOString(),
      destIP: serviceAddress(rng),
      destPort: rng.weighted([[443, 95], [8443, 3], [993, 2]] as const),
      ja3: rng.pick(JA3_CLIENTS),
      ja3s: rng.pick(JA3S_SERVERS),
    };
  });
}
