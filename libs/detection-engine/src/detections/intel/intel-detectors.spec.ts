import type { IpEvent, TelemetryType, TlsEvent } from '@vigil/contracts';
import { assertValidOcsfFinding, createRng } from '@vigil/testing';
import { FindingAggregator } from '../../aggregation/finding-aggregator';
import { CORE_FLAGS, FLAG_DICTIONARY } from '../../inventory/flags';
import { CORE_THREATS, THREAT_DICTIONARY } from '../../inventory/threats';
import { IndicatorStore } from '../../intel/indicator-store';
import { parseAttackPair } from '../../mitre';
import { observeEvent } from '../../observed-event';
import { buildDetectionFinding } from '../../ocsf/finding-builder';
import { batch, benignNames, dnsEvent, httpEvent, iso, T0 } from '../../testing/fixtures';
import type { DetectionHit, ObservedEvent } from '../detection';
import { createIntelDetectors } from './create-intel-detectors';
import { mayBeAddress } from './event-intel';
import { INTEL_DETECTIONS, INTEL_FLAGS, INTEL_THREATS } from './intel-definitions';

const store = new IndicatorStore();
const detectors = createIntelDetectors(store, { configuredResolvers: ['10.0.0.53', '8.8.4.4'] });

let seq = 0;
function observed(type: TelemetryType, event: object): ObservedEvent {
  return observeEvent(batch(`b${++seq}`, type, [event as never]), 0)!;
}
const dns = (query: string) => observed('dns', dnsEvent(query, T0));
const http = (url: string) => observed('http', httpEvent(url, T0));
const ip = (destIP: string, destPort: number, extra: Partial<IpEvent> = {}) =>
  observed('ip', { ts: iso(T0), srcIP: '10.0.0.5', destIP, destPort, proto: 'tcp', ...extra });
const tls = (extra: Partial<TlsEvent>) => observed('tls', { ts: iso(T0), srcIP: '10.0.0.5', destIP: '192.0.2.44', destPort: 443, ...extra });

function hitsOf(event: ObservedEvent): DetectionHit[] {
  return detectors.filter((d) => d.types.includes(event.type)).flatMap((d) => d.inspect(event) ?? []);
}
function only(event: ObservedEvent, id: string): DetectionHit {
  const hits = hitsOf(event);
  const hit = hits.find((h) => h.detection.id === id);
  if (hit === undefined) throw new Error(`expected ${id}, got [${hits.map((h) => h.detection.id).join(', ')}]`);
  return hit;
}

describe('intel detections on crafted events', () => {
  it('C2 by DNS name (subdomain of a trail), naming indicator, family and source', () => {
    const hit = only(dns('update.0debug.cc'), 'intel_c2');
    expect(hit.key).toBe('0debug.cc');
    expect(hit.detection.threat).toBe('c2_communication');
    expect(hit.wisdom).toEqual({ flags: ['c2'], labels: ['c2:0debug'], domain: '0debug.cc' });
    expect(hit.desc).toMatch(/^DNS query for update\.0debug\.cc matches the C2 domain indicator 0debug\.cc \(family 0debug; source maltrail:malware\)/);
  });

  it('C2 by IP:port, HTTP URL and TLS fingerprints', () => {
    expect(only(ip('1.12.231.30', 8080), 'intel_c2').wisdom.labels).toEqual(['c2:Cobalt Strike']);
    expect(hitsOf(ip('1.12.231.30', 22))).toEqual([]);
    expect(only(ip('51.210.1.239', 8443), 'intel_malicious_destination').wisdom.labels).toEqual(['malicious:365stealer_phishtool']);
    expect(only(http('http://195.10.205.207/anything'), 'intel_c2').wisdom.labels).toEqual(['c2:0debug']);
    const byJa3 = only(tls({ ja3: '724dedf93fb5a3636a0f1ee8fcec8801', subject: 'CN=topbackupintheworld.com' }), 'intel_c2');
    expect(byJa3.wisdom.labels).toEqual(['c2:Cobalt Strike']);
    expect(byJa3.desc).toMatch(/JA3 indicator/);
    expect(only(tls({ certHash: '6ECE5ECE4192683D2D84E25B0BA7E04F9CB7EB7C' }), 'intel_c2').key).toBe('6ece5ece4192683d2d84e25b0ba7e04f9cb7eb7c');
  });

  it('sinkholed destinations by address and by name', () => {
    expect(only(ip('104.155.11.149', 80), 'intel_sinkhole').wisdom.flags).toEqual(['sinkholed']);
    const sinkholeName = store.matchDomain('sinkhole.shadowserver.org').find((m) => m.category === 'sinkhole');
    if (sinkholeName !== undefined) expect(only(dns(`x.${sinkholeName.indicator}`), 'intel_sinkhole').wisdom.labels![0]).toMatch(/^sinkhole:/);
  });

  it('mining pools by trail and by Stratum port', () => {
    expect(only(ip('107.191.47.239', 3333), 'intel_crypto_mining').wisdom.labels).toContain('miner:pool');
    expect(only(ip('203.0.113.9', 14444), 'intel_crypto_mining').key).toBe('stratum:14444');
    expect(only(ip('203.0.113.9', 9000, { app: 'stratum+tcp' }), 'intel_crypto_mining').desc).toMatch(/Stratum/);
  });

  it('IRC by port and by application', () => {
    expect(only(ip('203.0.113.9', 6667), 'intel_irc').detection.threat).toBe('bad_irc_traffic');
    expect(only(ip('203.0.113.9', 7000, { app: 'irc' }), 'intel_irc').key).toBe('203.0.113.9:7000');
  });

  it('Tor: .onion and tor2web lookups, relays from a loaded list, Tor link certificates', async () => {
    expect(only(dns('abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwx.onion'), 'intel_tor_dns').wisdom.flags).toEqual(['tor_dns', 'anon']);
    expect(only(dns('xyz.onion.ws'), 'intel_tor_dns').key).toBe('onion.ws');
    expect(only(tls({ subject: 'CN=www.q4mxkzrhbqy3z.net', issuer: 'CN=www.hd2ovbkwexe4t6.com' }), 'intel_tor_circuit').key).toBe('tor-certificate');
    const relays = new IndicatorStore({ seed: false });
    const { makeTempDir } = await import('@vigil/testing');
    const dir = makeTempDir('intel-tor-');
    try {
      require('node:fs').writeFileSync(`${dir.path}/relays.txt`, '192.0.2.200\n');
      await relays.loadList(`${dir.path}/relays.txt`, 'lines', { label: 'tor:relay' });
      const [, , , , , , torCircuit] = createIntelDetectors(relays);
      expect(torCircuit.inspect(ip('192.0.2.200', 9001))?.detection.threat).toBe('anon_circuit');
    } finally {
      dir.cleanup();
    }
  });

  it('Telegram Bot API by name and by bot method call', () => {
    expect(only(dns('api.telegram.org'), 'intel_telegram_bot_api').key).toBe('api.telegram.org');
    expect(only(http('https://api.telegram.org/bot123456:AAbbCC_dd-ee/sendDocument'), 'intel_telegram_bot_api').desc).toMatch(/calls a bot method/);
  });

  it('dynamic DNS host names, but not the provider site itself', () => {
    expect(only(dns('myhost.duckdns.org'), 'intel_dynamic_dns').key).toBe('duckdns.org');
    expect(hitsOf(dns('duckdns.org'))).toEqual([]);
  });

  it('tunnelling services', () => {
    expect(only(dns('3f2a-81-2-3-4.ngrok-free.app'), 'intel_tunneling_service').wisdom.labels).toContain('tunnel:ngrok');
    expect(only(dns('tunnel.us.ngrok.com'), 'intel_tunneling_service').key).toBe('tunnel.us.ngrok.com');
    expect(hitsOf(dns('ngrok.com'))).toEqual([]);
    expect(only(http('https://random-words.trycloudflare.com/'), 'intel_tunneling_service').key).toBe('trycloudflare.com');
  });

  it('encrypted DNS needs a session: a lookup of a DoH name or the canary alone raises nothing', () => {
    for (const name of ['dns.google', 'cloudflare-dns.com', 'mozilla.cloudflare-dns.com', 'use-application-dns.net', 'dns.quad9.net']) {
      expect(hitsOf(dns(name))).toEqual([]);
    }
    // The provider's web page is not DNS.
    expect(hitsOf(http('https://dns.google/'))).toEqual([]);
    expect(hitsOf(http('https://cloudflare-dns.com/favicon.ico'))).toEqual([]);
  });

  it('encrypted DNS: DoH requests over HTTP, TLS to a DoH endpoint, DoH addresses on 443, DoT on 853', () => {
    const query = only(http('https://dns.google/dns-query?dns=q80BAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB'), 'intel_encrypted_dns');
    expect(query.wisdom.flags).toEqual(['doh']);
    expect(query.desc).toMatch(/path \/dns-query/);
    expect(only(http('https://dns.google/resolve?name=example.com'), 'intel_encrypted_dns').key).toBe('dns.google');
    expect(only(observed('http', { ...httpEvent('https://mozilla.cloudflare-dns.com/x', T0), contentType: 'application/dns-message' }), 'intel_encrypted_dns').desc).toMatch(/content type/);
    expect(only(observed('http', { ...httpEvent('cloudflare-dns.com:443', T0), method: 'CONNECT' }), 'intel_encrypted_dns').desc).toMatch(/CONNECT/);
    expect(only(tls({ subject: 'CN=cloudflare-dns.com' }), 'intel_encrypted_dns').key).toBe('cloudflare-dns.com:443');
    expect(only(tls({ destIP: '8.8.8.8', subject: 'CN=example.net' }), 'intel_encrypted_dns').key).toBe('8.8.8.8:443');
    expect(only(ip('1.1.1.1', 443), 'intel_encrypted_dns').key).toBe('1.1.1.1:443');
    expect(only(tls({ destIP: '203.0.113.77', destPort: 853 }), 'intel_encrypted_dns').wisdom.flags).toEqual(['dot']);
    expect(only(ip('9.9.9.9', 853), 'intel_encrypted_dns').wisdom.labels).toContain('dot:resolver');
  });

  it('encrypted DNS: not to a configured resolver, and not on other ports of a resolver address', () => {
    expect(hitsOf(ip('8.8.4.4', 853)).map((h) => h.detection.id)).not.toContain('intel_encrypted_dns');
    expect(hitsOf(ip('8.8.8.8', 80)).map((h) => h.detection.id)).not.toContain('intel_encrypted_dns');
    expect(hitsOf(tls({ subject: 'CN=cloudflare-dns.com', destPort: 8443 }))).toEqual([]);
  });

  it('DNS resolver bypass to public resolvers, not to the configured ones', () => {
    const hit = only(ip('8.8.8.8', 53, { proto: 'udp' }), 'intel_dns_resolver_bypass');
    expect(hit.desc).toMatch(/DNS over UDP sent straight to an outside resolver/);
    expect(THREAT_DICTIONARY[hit.detection.threat]).toMatchObject({ severity: 2, policy: true });
    expect(hitsOf(ip('8.8.4.4', 53, { proto: 'udp' }))).toEqual([]);
    expect(hitsOf(ip('10.0.0.53', 53, { proto: 'udp' }))).toEqual([]);
  });

  it('DNS resolver bypass: a configured resolver forwarding to its upstream is how DNS works', () => {
    expect(hitsOf(ip('1.1.1.1', 53, { proto: 'udp', srcIP: '10.0.0.53' }))).toEqual([]);
    expect(only(ip('1.1.1.1', 53, { proto: 'udp', srcIP: '10.0.0.54' }), 'intel_dns_resolver_bypass').key).toBe('1.1.1.1');
  });

  it('Telegram: a lookup of telegram.org or its web app is not the Bot API', () => {
    for (const name of ['telegram.org', 'www.telegram.org', 'web.telegram.org', 't.me']) expect(hitsOf(dns(name))).toEqual([]);
  });

  it('sees a store refresh on the next event', async () => {
    const fresh = new IndicatorStore({ seed: false });
    const [c2] = createIntelDetectors(fresh);
    const event = dns('brand-new-c2.example');
    expect(c2.inspect(event)).toBeUndefined();
    const { makeTempDir } = await import('@vigil/testing');
    const dir = makeTempDir('intel-refresh-');
    try {
      require('node:fs').writeFileSync(`${dir.path}/feed.txt`, 'brand-new-c2.example\n');
      await fresh.loadList(`${dir.path}/feed.txt`, 'lines', { label: 'c2:New' });
      expect(c2.inspect(dns('brand-new-c2.example'))?.wisdom.labels).toEqual(['c2:New']);
    } finally {
      dir.cleanup();
    }
  });
});

describe('intel detections on benign traffic', () => {
  it('stay silent on the popular domains (DNS and HTTP)', () => {
    const names = [...benignNames('tranco10k.txt'), ...benignNames('majestic-top10k.txt'), ...benignNames('cisco-top20k.txt')];
    const noisy: string[] = [];
    for (const name of names) {
      for (const hit of [...hitsOf(dns(name)), ...hitsOf(http(`https://${name}/index.html`))]) {
        noisy.push(`${hit.detection.id} ${name}`);
      }
    }
    expect(noisy).toEqual([]);
  });

  it('stay silent on ordinary web, mail and DNS flows', () => {
    for (const event of [ip('142.250.74.110', 443), ip('10.0.0.53', 53, { proto: 'udp' }), ip('52.96.0.1', 587), tls({ subject: 'CN=www.example.com', issuer: "CN=R3,O=Let's Encrypt,C=US" })]) {
      expect(hitsOf(event)).toEqual([]);
    }
  });
});

describe('intel detection definitions and findings', () => {
  it('declare known threats, flags and valid MITRE pairs', () => {
    expect(detectors.map((d) => d.definition)).toEqual(INTEL_DETECTIONS);
    for (const definition of INTEL_DETECTIONS) {
      expect(THREAT_DICTIONARY[definition.threat]).toBeDefined();
      for (const flag of definition.flags) expect(FLAG_DICTIONARY[flag]).toBeDefined();
      for (const pair of definition.mitreAttack) expect(() => parseAttackPair(pair)).not.toThrow();
    }
    for (const id of Object.keys(INTEL_THREATS)) expect(CORE_THREATS[id]).toBeUndefined();
    for (const id of Object.keys(INTEL_FLAGS)) expect(CORE_FLAGS[id]).toBeUndefined();
  });

  it('turn into valid OCSF Detection Findings', () => {
    const aggregator = new FindingAggregator(100);
    const events = [dns('update.0debug.cc'), ip('8.8.8.8', 53), tls({ subject: 'CN=www.q4mxkzrhbqy3z.net', issuer: 'CN=www.hd2ovbkwexe4t6.com' }), ip('203.0.113.9', 6667)];
    for (const event of events) for (const hit of hitsOf(event)) aggregator.add(event.workspaceId, event.endpoint, hit, event.batchId);
    const versions = aggregator.flush(T0 + 60_000);
    expect(versions.length).toBeGreaterThanOrEqual(4);
    for (const version of versions) {
      const finding = buildDetectionFinding(version, { processedMs: T0 + 61_000 });
      assertValidOcsfFinding(finding);
      expect(finding.finding_info.desc).toMatch(/ (matches|uses|presents) /);
    }
  });
});

describe('mayBeAddress', () => {
  it('answers as the pattern of digits and dots or a colon, on names, addresses and random text', () => {
    const rng = createRng('may-be-address');
    const hosts = ['example.com', '203.0.113.9', '2001:db8::1', '.5', '1.2.3.4.5', '1a.2', 'a1.2', '', '::', '[2001:db8::1]', '9'];
    const alphabet = '0123456789.:abz-[]';
    for (let i = 0; i < 3_000; i++) {
      let host = '';
      for (let n = rng.int(0, 12); n > 0; n--) host += alphabet[rng.int(0, alphabet.length - 1)];
      hosts.push(host);
    }
    for (const host of hosts) expect({ host, address: mayBeAddress(host) }).toEqual({ host, address: /^[\d.]+$|:/.test(host) });
  });
});
