import { benignDnsEvents } from '@vigil/testing';
import { dnsEvent } from '../../testing/fixtures';
import { CleartextProtocolDetector } from './cleartext';
import { flow, hitsOf, observe, T0, unanswered } from './flow-fixtures';
import { DirectSmtpDetector, MxLookupDetector } from './spambot';
import { UnusualPortDetector, UnusualPortVolumeDetector } from './unusual-port';

describe('CleartextProtocolDetector', () => {
  const detector = new CleartextProtocolDetector();

  it.each([
    [21, 'ftp'],
    [23, 'telnet'],
    [110, 'pop3'],
    [143, 'imap'],
    [873, 'rsync'],
  ])('fires on port %d (%s) to an Internet host', (destPort, protocol) => {
    const [hit] = hitsOf(detector, [flow(T0, { destPort, destIP: '45.77.1.2' })]);
    expect(hit.key).toBe(protocol);
    expect(hit.detection.severity).toBe(1);
    expect(hit.desc).toBe(`${protocol.toUpperCase()} connection to 45.77.1.2 port ${destPort} on the Internet: credentials and data cross it unencrypted`);
  });

  it('trusts the sensor\'s protocol over the port', () => {
    expect(hitsOf(detector, [flow(T0, { destPort: 2323, app: 'telnet', destIP: '45.77.1.2' })])[0].key).toBe('telnet');
    expect(hitsOf(detector, [flow(T0, { destPort: 143, app: 'tls', destIP: '45.77.1.2' })])).toEqual([]);
  });

  it('ignores private and reserved destinations, blocked connections and encrypted variants', () => {
    const events = [
      flow(T0, { destPort: 23, destIP: '192.168.1.1' }),
      flow(T0, { destPort: 21, destIP: '10.0.0.1' }),
      flow(T0, { destPort: 110, destIP: '198.51.100.3' }),
      flow(T0, { destPort: 23, destIP: '45.77.1.2', action: 'blocked' }),
      flow(T0, { destPort: 993, destIP: '45.77.1.2' }),
      flow(T0, { destPort: 995, destIP: '45.77.1.2' }),
    ];
    expect(hitsOf(detector, events)).toEqual([]);
  });
});

describe('DirectSmtpDetector', () => {
  it('fires when one host reaches 8 distinct mail servers on port 25 within 10 minutes', () => {
    const detector = new DirectSmtpDetector();
    const events = Array.from({ length: 15 }, (_, i) => flow(T0 + i * 20_000, { destPort: 25, destIP: `45.77.2.${i + 1}` }));
    const hits = hitsOf(detector, events);
    expect(hits).toHaveLength(8);
    expect(hits[0].weight).toBe(8);
    expect(hits[0].key).toBe('tcp/25');
    expect(hits[0].desc).toMatch(/^SMTP connections from a non-mail-server host to 8 distinct Internet mail servers within 10 min/);
  });

  it('stays silent for listed mail servers, submission ports and repeated delivery to one relay', () => {
    const detector = new DirectSmtpDetector({ mailServers: ['10.0.0.25'] });
    const relay = Array.from({ length: 50 }, (_, i) => flow(T0 + i * 1_000, { destPort: 25, destIP: '45.77.2.1' }));
    const submission = Array.from({ length: 50 }, (_, i) => flow(T0 + i * 1_000, { destPort: 587, destIP: `45.77.3.${i + 1}` }));
    const server = Array.from({ length: 50 }, (_, i) => flow(T0 + i * 1_000, { srcIP: '10.0.0.25', destPort: 25, destIP: `45.77.4.${i + 1}` }));
    expect(hitsOf(detector, [...relay, ...submission, ...server])).toEqual([]);
  });
});

describe('MxLookupDetector', () => {
  const mx = (domain: string, t: number, srcIP = '10.0.0.5') => observe('dns', dnsEvent(domain, t, srcIP, { qtype: 'MX' }));

  it('fires on the flightsim spambot shape: MX lookups of 10 popular mail domains within seconds', () => {
    const detector = new MxLookupDetector();
    const domains = ['gmail.com', 'yahoo.com', 'mail.ru', 'outlook.com', 'aol.com', 'gmx.de', 'web.de', 'qq.com', 'naver.com', 'free.fr'];
    const hits = hitsOf(detector, domains.map((d, i) => mx(d, T0 + i * 300)));
    expect(hits).toHaveLength(3);
    expect(hits[0].weight).toBe(8);
    expect(hits[0].wisdom.domain).toBe('qq.com');
    expect(hits[0].desc).toMatch(/^MX lookups for 8 distinct domains within 1 min \(\w.*, \.\.\.\) from a host that is not a mail server/);
  });

  it('stays silent when the same lookups are spread over several minutes', () => {
    const domains = ['gmail.com', 'yahoo.com', 'mail.ru', 'outlook.com', 'aol.com', 'gmx.de', 'web.de', 'qq.com', 'naver.com', 'free.fr'];
    expect(hitsOf(new MxLookupDetector(), domains.map((d, i) => mx(d, T0 + i * 20_000)))).toEqual([]);
  });

  it('counts subdomains of one registered domain once and ignores listed mail servers', () => {
    const detector = new MxLookupDetector({ mailServers: ['10.0.0.25'] });
    const same = ['a.example.com', 'b.example.com', 'c.example.com', 'd.example.com', 'example.com', 'e.example.com'].map((d, i) => mx(d, T0 + i));
    const server = ['gmail.com', 'yahoo.com', 'mail.ru', 'outlook.com', 'aol.com'].map((d, i) => mx(d, T0 + i, '10.0.0.25'));
    expect(hitsOf(detector, [...same, ...server])).toEqual([]);
  });

  it('stays silent on 20,000 ordinary lookups (A/AAAA/HTTPS...)', () => {
    const detector = new MxLookupDetector();
    expect(hitsOf(detector, benignDnsEvents(20_000, { seed: 3 }).map((e) => observe('dns', e)))).toEqual([]);
  });
});

describe('UnusualPortDetector and UnusualPortVolumeDetector', () => {
  it('flags an answered connection to port 4444 on the Internet', () => {
    const [hit] = hitsOf(new UnusualPortDetector(), [flow(T0, { destIP: '45.77.5.5', destPort: 4444 })]);
    expect(hit.key).toBe('45.77.5.5:4444');
    expect(hit.detection.threat).toBe('unusual_network_port');
  });

  it('leaves service ports, dynamic ports, UDP, unanswered attempts and internal hosts alone', () => {
    const events = [
      flow(T0, { destIP: '45.77.5.5', destPort: 443 }),
      flow(T0, { destIP: '45.77.5.5', destPort: 5223 }),
      flow(T0, { destIP: '45.77.5.5', destPort: 55_000 }),
      flow(T0, { destIP: '45.77.5.5', destPort: 4444, proto: 'udp' }),
      unanswered(T0, { destIP: '45.77.5.5', destPort: 4444 }),
      flow(T0, { destIP: '10.5.5.5', destPort: 4444 }),
    ];
    expect(hitsOf(new UnusualPortDetector(), events)).toEqual([]);
  });

  it('raises the volume detection at the 10th connection to one unusual port within 10 minutes', () => {
    const detector = new UnusualPortVolumeDetector();
    const hits = hitsOf(detector, Array.from({ length: 12 }, (_, i) => flow(T0 + i * 30_000, { destIP: '45.77.5.5', destPort: 1337 })));
    expect(hits).toHaveLength(3);
    expect(hits[0].weight).toBe(10);
    expect(hits[0].detection.threat).toBe('conn_unusual_port_volume');
    expect(hitsOf(new UnusualPortVolumeDetector(), Array.from({ length: 12 }, (_, i) => flow(T0 + i * 120_000, { destIP: '45.77.5.5', destPort: 1337 })))).toEqual([]);
  });
});
