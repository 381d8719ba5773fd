import { benignNames } from '../../testing/fixtures';
import type { ObservedEvent } from '../detection';
import { ImposterDomainDetector, IMPOSTER_DOMAIN } from './imposter-domain';

function dns(hostname: string): ObservedEvent {
  return {
    workspaceId: 'ws',
    batchId: 'b',
    index: 0,
    type: 'dns',
    event: { ts: '2026-01-01T00:00:00.000Z', srcIP: '10.0.0.1', query: hostname },
    timeMs: 0,
    endpoint: { ip: '10.0.0.1', id: '10.0.0.1' },
    hostname,
    rawHostname: hostname,
  };
}

describe('ImposterDomainDetector', () => {
  const detector = new ImposterDomainDetector();

  it('fires on look-alikes of popular brands, saying which and how', () => {
    for (const name of ['www.paypa1.com', 'login.micr0soft.net', 'paypal-account-verify.com', 'www.gooogle.com']) {
      const hit = detector.inspect(dns(name));
      expect({ name, fired: hit?.detection.id }).toEqual({ name, fired: IMPOSTER_DOMAIN.id });
      expect(hit!.desc).toMatch(/popular/);
      expect(hit!.wisdom.flags).toEqual(['imposter']);
    }
  });

  it('stays silent on the popular domains themselves and on the benign rankings', () => {
    expect(detector.inspect(dns('www.paypal.com'))).toBeUndefined();
    const names = [...benignNames('tranco10k.txt'), ...benignNames('majestic-top10k.txt'), ...benignNames('cisco-top20k.txt')];
    const fired = names.filter((name) => detector.inspect(dns(name)) !== undefined);
    // Every ranked domain is exempt by popularity; what remains are hosts under unranked registered domains.
    expect(fired.length / names.length).toBeLessThan(0.002);
  });
});
