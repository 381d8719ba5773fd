import { benignNames } from '../../testing/fixtures';
import { PopularitySet } from '../../popularity/popularity';
import type { ObservedEvent } from '../detection';
import { ImposterDomainDetector, IMPOSTER_DOMAIN } from './imposter-domain';

const T = Date.parse('2026-01-01T10:00:00.000Z');

function dns(hostname: string, timeMs = T, host = '10.0.0.1'): ObservedEvent {
  return {
    workspaceId: 'ws',
    batchId: 'b',
    index: 0,
    type: 'dns',
    event: { ts: new Date(timeMs).toISOString(), srcIP: host, query: hostname },
    timeMs,
    endpoint: { ip: host, id: host },
    hostname,
    rawHostname: hostname,
  };
}

describe('ImposterDomainDetector', () => {
  it('fires on look-alikes of popular brands, saying which, how and on what evidence', () => {
    const detector = new ImposterDomainDetector();
    for (const name of ['www.paypa1.com', 'login.micr0soft.net', 'paypal-account-verify.com', 'instragram.com', 'micros0ft-login.com', 'www.rnicrosoft.com']) {
      const hit = detector.inspect(dns(name));
      expect({ name, fired: hit?.detection.id }).toEqual({ name, fired: IMPOSTER_DOMAIN.id });
      expect(hit!.desc).toMatch(/popular/);
      expect(hit!.wisdom.flags).toEqual(['imposter']);
    }
    const paypa1 = detector.inspect(dns('www.paypa1.com'))!;
    expect(paypa1.observations).toEqual(['imitates paypal.com', 'technique homoglyph', 'evidence 4: digits for letters +2, much-phished brand +2']);
  });

  it("stays silent on the legitimate long-tail sites of the issue that are one edit from a brand", () => {
    const detector = new ImposterDomainDetector();
    for (const name of ['ecornell.com', 'cpython.org', 'notino.bg', 'papier.com', 'twitchy.com', 'microspot.ch', 'pcloud.com', 'feddit.dk']) {
      expect({ name, fired: detector.inspect(dns(name))?.observations }).toEqual({ name, fired: undefined });
    }
  });

  it('weighs a plain typo with context: silent alone, reported after the same host looked up the real brand', () => {
    const detector = new ImposterDomainDetector();
    // `goqgle`: a letter far from the one it replaces, not a slip of the fingers
    expect(detector.inspect(dns('goqgle.com'))).toBeUndefined();
    expect(detector.inspect(dns('www.google.com', T + 1000))).toBeUndefined();
    const hit = detector.inspect(dns('goqgle.com', T + 60_000));
    expect(hit?.observations[2]).toMatch(/host also looked up google\.com \+1/);
    // another host, or the same one much later, has no such context
    expect(detector.inspect(dns('goqgle.com', T + 60_000, '10.0.0.2'))).toBeUndefined();
    expect(detector.inspect(dns('goqgle.com', T + 3 * 3_600_000))).toBeUndefined();
  });

  it("reports a typo that is a slip of the fingers on a much-phished brand (the issue's goole.com), not another word one edit away", () => {
    const detector = new ImposterDomainDetector();
    for (const name of ['goole.com', 'gooogle.com', 'wlamart.com', 'paypl.com', 'netflx.net']) {
      const hit = detector.inspect(dns(name));
      expect({ name, fired: hit?.observations[2] }).toEqual({ name, fired: expect.stringMatching(/a slip of the fingers \+1/) });
    }
    // a letter far from the one it replaces, or one added that doubles nothing: another word, not a slip
    for (const name of ['stripo.com', 'tawitter.com', 'goqgle.com']) expect({ name, fired: detector.inspect(dns(name))?.observations }).toEqual({ name, fired: undefined });
  });

  it('reports a one-bit flip or a slip of the fingers on a five-character much-phished brand, not another edit of it', () => {
    const detector = new ImposterDomainDetector();
    expect(detector.inspect(dns('yahgo.com'))?.observations[1]).toBe('technique bitsquat');
    for (const name of ['yahop.com', 'yhaoo.com', 'chhase.com', 'fedx.xyz']) {
      expect({ name, fired: detector.inspect(dns(name))?.observations[2] }).toEqual({ name, fired: expect.stringMatching(/a slip of the fingers \+1/) });
    }
    expect(detector.inspect(dns('yahxo.com'))).toBeUndefined();
  });

  it('weighs a vanity gTLD against the look-alike, and a cheap one neither way', () => {
    const detector = new ImposterDomainDetector();
    expect(detector.inspect(dns('yhaoo.network'))).toBeUndefined();
    expect(detector.inspect(dns('yhaoo.foundation'))).toBeUndefined();
    expect(detector.inspect(dns('yhaoo.online'))?.observations[2]).not.toMatch(/TLD/);
    expect(detector.inspect(dns('paypl.network'))?.observations[2]).toBeUndefined();
  });

  it("weighs a country TLD that is not the brand's, and a combination with words besides brand and lure, against the look-alike", () => {
    const detector = new ImposterDomainDetector();
    expect(detector.inspect(dns('paypl.com'))).toBeDefined();
    expect(detector.inspect(dns('paypl.de'))).toBeUndefined();
    expect(detector.inspect(dns('office-service.com'))?.observations[2]).toMatch(/brand beside a lure word/);
    expect(detector.inspect(dns('kingsoft-office-service.com'))).toBeUndefined();
    // a brand disguised inside the combination is the brand, not another word
    expect(detector.inspect(dns('micros0ft-login.com'))).toBeDefined();
  });

  it('keeps the brands each host looked up bounded, and restores them from a snapshot', () => {
    const detector = new ImposterDomainDetector({ maxHosts: 3, maxBrandsPerHost: 2 });
    for (let h = 0; h < 5; h++) for (const brand of ['www.google.com', 'www.paypal.com', 'www.netflix.com']) detector.inspect(dns(brand, T, `10.0.1.${h}`));
    expect(detector.stateStats()).toEqual({ keys: 3, maxKeys: 3, largestKey: 2, maxEntriesPerKey: 2 });
    const copy = new ImposterDomainDetector({ maxHosts: 3, maxBrandsPerHost: 2 });
    copy.restore(JSON.parse(JSON.stringify(detector.snapshot())));
    expect(copy.snapshot()).toEqual(detector.snapshot());
    expect(copy.inspect(dns('netflx.com', T + 1000, '10.0.1.4'))?.observations[2]).toMatch(/host also looked up netflix\.com/);
    expect(() => copy.restore({ nonsense: true })).toThrow();
  });

  it('keeps the brands a host looked up most recently when it looks up more than it may keep', () => {
    const detector = new ImposterDomainDetector({ maxBrandsPerHost: 2 });
    for (const [name, at] of [['www.google.com', 0], ['www.paypal.com', 1000], ['www.google.com', 2000], ['www.netflix.com', 3000]] as const) {
      detector.inspect(dns(name, T + at));
    }
    expect(detector.inspect(dns('goqgle.com', T + 4000))?.observations[2]).toMatch(/host also looked up google\.com/);
    expect(detector.inspect(dns('paypl.com', T + 4000))?.observations[2]).not.toMatch(/host also looked up/);
  });

  it('answers from its own rankings when detectors built on other rankings see the same name', () => {
    const rankings = (domain: string) => PopularitySet.fromText(`# vigil popularity v1\n[top1k]\n${domain}\n`);
    const brandIsPaypa1 = new ImposterDomainDetector(rankings('paypa1.com'));
    const brandIsPaypal = new ImposterDomainDetector(rankings('paypal.com'));
    // The name's split is shared from its second request on, with what the first detector worked out about it.
    for (let i = 0; i < 3; i++) expect(brandIsPaypa1.inspect(dns('www.paypa1.com'))).toBeUndefined();
    expect(brandIsPaypal.inspect(dns('www.paypa1.com'))?.observations[0]).toBe('imitates paypal.com');
    expect(brandIsPaypa1.inspect(dns('www.paypa1.com'))).toBeUndefined();
  });

  it('stays silent on the popular domains themselves and on the benign rankings', () => {
    const detector = new ImposterDomainDetector();
    expect(detector.inspect(dns('www.paypal.com'))).toBeUndefined();
    const names = [...benignNames('tranco10k.txt'), ...benignNames('majestic-top10k.txt'), ...benignNames('cisco-top20k.txt')];
    const fired = names.filter((name) => detector.inspect(dns(name)) !== undefined);
    expect(fired.length / names.length).toBeLessThan(0.0005);
  });
});
