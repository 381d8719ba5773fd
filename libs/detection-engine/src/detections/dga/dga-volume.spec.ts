import { benignDnsEvents } from '@vigil/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@vigil/testing';
import { IndicatorStore } from '../../intel/indicator-store';
import { observeEvent } from '../../observed-event';
import { PopularitySet } from '../../popularity/popularity';
import { batch, benignNames, dnsEvent, seededRandom, shuffled, T0 } from '../../testing/fixtures';
import type { DetectionHit, ObservedEvent } from '../detection';
import { createDgaDetector, DEFAULT_DGA_VOLUME_OPTIONS, DgaVolumeDetector } from './dga-volume';
import { dynamicDnsZoneOf } from './dynamic-zone';

let seq = 0;
function observe(query: string, timeMs: number, srcIP = '10.0.0.5', workspaceId = 'ws-test'): ObservedEvent {
  const observed = observeEvent(batch(`b${seq++}`, 'dns', [dnsEvent(query, timeMs, srcIP)], { workspaceId }), 0);
  if (observed === undefined) throw new Error('not observable');
  return observed;
}

/** flightsim's DGA module: random 7-10 letter labels under common TLDs. */
function flightsimNames(n: number, seed: number): string[] {
  const random = seededRandom(seed);
  const tlds = ['.com', '.net', '.biz', '.org', '.info', '.top'];
  return Array.from({ length: n }, () => {
    const length = 7 + Math.floor(random() * 4);
    let label = '';
    for (let i = 0; i < length; i++) label += String.fromCharCode(97 + Math.floor(random() * 26));
    return label + tlds[Math.floor(random() * tlds.length)];
  });
}

function fired(detector: DgaVolumeDetector, events: ObservedEvent[]): DetectionHit[] {
  return events.map((e) => detector.inspect(e)).filter((h): h is DetectionHit => h !== undefined);
}

describe('DgaVolumeDetector', () => {
  it('catches every one of 50 flightsim-shaped runs (15 names in 15 s)', () => {
    let caught = 0;
    for (let run = 0; run < 50; run++) {
      const detector = createDgaDetector();
      const hits = fired(detector, flightsimNames(15, 100 + run).map((name, i) => observe(name, T0 + i * 1000)));
      if (hits.length > 0) caught++;
    }
    expect(caught).toBe(50);
  });

  it('reports the build-up on first firing, then one lookup per hit', () => {
    const detector = createDgaDetector();
    const names = ['tufomgucxbxqvut.com', 'lcqqokcaxpeiowq.net', 'dtfkevqvyvrrwk.biz', 'mspftdngwpvvo.org', 'fhhvhiqlrtwpnik.info', 'kwobkvkcjsaovhyun.net', 'qpmcuzrwqxbhfe.com', 'nvbqkawjthgyzm.org'];
    const hits = names.map((name, i) => detector.inspect(observe(`www.${name}`, T0 + i * 2000)));
    // Nothing is weighed below six domains; these fire as soon as they are weighed.
    expect(hits.slice(0, 5).every((h) => h === undefined)).toBe(true);
    const first = hits[5]!;
    expect(first.key).toBe('dga');
    expect(first.weight).toBe(6);
    expect(first.evidence.map((e) => e.wisdom.domain)).toEqual(names.slice(0, 6));
    expect(first.wisdom).toEqual({ flags: ['perplexing_domain', 'unique'], domain: 'kwobkvkcjsaovhyun.net' });
    expect(first.desc).toMatch(/^6 distinct generated-looking domains in 60 s \(e\.g\. .*\), none of them in the popularity rankings/);
    expect(first.observations[1]).toMatch(/combined evidence 1e-\d+\.\d against benign browsing \(needs 1e-5\)/);
    expect(hits[6]!.weight).toBe(1);
    expect(hits[6]!.evidence).toHaveLength(1);
  });

  it('catches the issue\'s shape: short labels of 7-10 letters with one digit, one per second, 10 or 15 of them', () => {
    const random = seededRandom(21);
    const tlds = ['.com', '.net', '.org', '.info'];
    const label = (): string => {
      const letters = Array.from({ length: 7 + Math.floor(random() * 4) }, () => String.fromCharCode(97 + Math.floor(random() * 26)));
      letters.splice(Math.floor(random() * letters.length), 0, String(Math.floor(random() * 10)));
      return letters.join('');
    };
    for (const count of [10, 15]) {
      let caught = 0;
      for (let run = 0; run < 30; run++) {
        const detector = createDgaDetector();
        if (fired(detector, Array.from({ length: count }, (_, i) => observe(label() + tlds[i % 4], T0 + i * 1000))).length > 0) caught++;
      }
      expect([count, caught]).toEqual([count, 30]);
    }
  });

  it('ignores labels a cloud or CDN provider generated', () => {
    const random = seededRandom(8);
    const alnum = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const id = (n: number): string => Array.from({ length: n }, () => alnum[Math.floor(random() * alnum.length)]).join('');
    const names = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? `d${id(13)}.cloudfront.net` : `media-${id(10)}.azureedge.net`));
    expect(fired(createDgaDetector(), names.map((n, i) => observe(n, T0 + i * 500)))).toEqual([]);
  });

  it('stays silent on a link-prefetch burst of 25 unranked real names (popularity switched off)', () => {
    const detector = createDgaDetector({ popularity: PopularitySet.fromText('# vigil popularity v1\n'), exactEvidence: true });
    const names = shuffled(benignNames('tranco10k.txt'), 17).slice(0, 25);
    expect(fired(detector, names.map((n, i) => observe(n, T0 + i * 120)))).toEqual([]);
    expect(detector.lastEvidence!.strength).toBeLessThan(6);
  });

  it('skips the kinship and TLD terms only where they could not change the decision', () => {
    const unranked = PopularitySet.fromText('# vigil popularity v1\n');
    const benign = shuffled(benignNames('tranco10k.txt'), 23).slice(0, 300);
    const runs = [
      ...Array.from({ length: 10 }, (_, r) => benign.slice(r * 30, r * 30 + 30)),
      ...Array.from({ length: 10 }, (_, r) => flightsimNames(12, 300 + r)),
      ['usahwutle', 'folocnam', 'awumsah', 'edorwufli', 'misocgutlah', 'tosacgufl', 'hogutlurwum', 'ugemlurwimd', 'tesicgufl', 'masucwemso'].map((l) => `${l}.com`),
    ];
    let skipped = 0;
    for (const names of runs) {
      const gated = createDgaDetector({ popularity: unranked });
      const exact = createDgaDetector({ popularity: unranked, exactEvidence: true });
      names.forEach((name, i) => {
        const event = observe(name, T0 + i * 2000);
        const [a, b] = [gated.inspect(event), exact.inspect(event)];
        expect(a !== undefined).toBe(b !== undefined);
        if (gated.lastEvidence === undefined && exact.lastEvidence !== undefined) {
          skipped++;
          expect(exact.lastEvidence.strength).toBeLessThan(DEFAULT_DGA_VOLUME_OPTIONS.minStrength);
        }
      });
    }
    expect(skipped).toBeGreaterThan(100);
  });

  it('stays silent on 10,000 lookups of popular names and on generated browsing', () => {
    const detector = createDgaDetector();
    const random = seededRandom(5);
    let t = T0;
    const names = shuffled(benignNames('cisco-top20k.txt'), 7).slice(0, 10_000);
    expect(fired(detector, names.map((n) => observe(n, (t += Math.floor(random() * 300)))))).toEqual([]);
    const browsing = benignDnsEvents(10_000, { seed: 3 }).map((e, i) =>
      observeEvent(batch(`g${i}`, 'dns', [e]), 0)!,
    );
    expect(fired(detector, browsing)).toEqual([]);
  });

  it('stays silent on 10,000 unranked-but-real names (popularity switched off) at a browsing rate', () => {
    // Cloudflare-listed names with the popularity filter emptied: what the model alone lets through.
    const detector = createDgaDetector({ popularity: PopularitySet.fromText('# vigil popularity v1\n') });
    const random = seededRandom(11);
    let t = T0;
    const names = shuffled(benignNames('cloudflare-top100k.txt'), 13).slice(0, 10_000);
    expect(fired(detector, names.map((n) => observe(n, (t += 500 + Math.floor(random() * 1000))))).length).toBe(0);
  });

  it('does not count names spread over more than the window, repeats, short labels or internal zones', () => {
    const detector = createDgaDetector();
    const names = flightsimNames(15, 1);
    expect(fired(detector, names.map((n, i) => observe(n, T0 + i * 20_000)))).toEqual([]);
    expect(fired(createDgaDetector(), Array.from({ length: 30 }, (_, i) => observe(names[0], T0 + i * 100)))).toEqual([]);
    const internal = flightsimNames(15, 2).map((n) => n.replace(/\.[a-z]+$/, '.local'));
    expect(fired(createDgaDetector(), internal.map((n, i) => observe(n, T0 + i * 100)))).toEqual([]);
    const short = ['qx.com', 'zq.net', 'kx.biz', 'vq.org', 'jq.info', 'wq.com', 'xz.net'];
    expect(fired(createDgaDetector(), short.map((n, i) => observe(n, T0 + i * 100)))).toEqual([]);
  });

  it('catches wordlist-generated names: four or five words to a label, all longer than benign names mostly are', () => {
    const words = ['their', 'the', 'and', 'alone', 'into', 'civilized', 'coasts', 'history', 'former', 'trial', 'that', 'through', 'government', 'which', 'country', 'between'];
    const random = seededRandom(5);
    const names = Array.from({ length: 12 }, () => {
      let label = '';
      while (label.length < 20) label += words[Math.floor(random() * words.length)];
      return `${label}.com`;
    });
    expect(fired(createDgaDetector(), names.map((n, i) => observe(n, T0 + i * 3000))).length).toBeGreaterThan(0);
  });

  it('weighs short random labels (3-5 characters, as QSnatch makes) by how alike and how short they all are', () => {
    const names = ['t2q2r.cf', 'gc9nz.tk', '7jax.mx', 'q5in.ml', 'aec.vn', 'icw.fi', 'ma3c.tl', '4mg.bz', 'u0l.lk', '9nxp.ng'];
    const hits = fired(createDgaDetector(), names.map((n, i) => observe(n, T0 + i * 3000)));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0].observations.join(' ')).toMatch(/alike: label lengths within 3/);
  });

  it('never weighs ranked domains, unless their tier is left out of establishedTiers', () => {
    const names = flightsimNames(15, 21);
    const asRanked = (tier: string) => PopularitySet.fromText(`# vigil popularity v1\n[${tier}]\n${names.join('\n')}\n`);
    const run = (detector: DgaVolumeDetector) => fired(detector, names.map((n, i) => observe(n, T0 + i * 3000)));
    expect(run(createDgaDetector({ popularity: asRanked('top100k') }))).toEqual([]);
    expect(run(createDgaDetector({ popularity: asRanked('top100k'), establishedTiers: ['top1k', 'top10k'] })).length).toBeGreaterThan(0);
    expect(run(createDgaDetector({ popularity: asRanked('top10k'), establishedTiers: ['top1k', 'top10k'] }))).toEqual([]);
  });

  it('weighs how well the labels predict each other\'s characters, which a pronounceable generator\'s do', () => {
    const names = ['usahwutle', 'folocnam', 'awumsah', 'edorwufli', 'misocgutlah', 'tosacgufl', 'hogutlurwum', 'ugemlurwimd', 'tesicgufl', 'masucwemso'].map((l) => `${l}.com`);
    const last = (detector: DgaVolumeDetector) => {
      names.forEach((n, i) => detector.inspect(observe(n, T0 + i * 3000)));
      return detector.lastEvidence!;
    };
    const withKinship = last(createDgaDetector());
    const without = last(createDgaDetector({ kinshipNull: null }));
    expect(withKinship.kinshipP).toBeLessThanOrEqual(0.001);
    expect(without.kinshipP).toBe(1);
    expect(withKinship.strength).toBeGreaterThan(without.strength + 1);
  });

  it('weighs how unlike browsing the suffixes are: one TLD for every name, as many generators use', () => {
    const labels = ['usahwutle', 'folocnam', 'awumsah', 'edorwufli', 'misocgutlah', 'tosacgufl', 'hogutlurwum', 'ugemlurwimd', 'tesicgufl', 'masucwemso'];
    const browsingMix = ['com', 'net', 'com', 'de', 'org', 'com', 'io', 'com', 'co.uk', 'com'];
    const last = (names: string[], options = {}) => {
      const detector = createDgaDetector({ exactEvidence: true, ...options });
      names.forEach((n, i) => detector.inspect(observe(n, T0 + i * 3000)));
      return detector.lastEvidence!;
    };
    const oneTld = last(labels.map((l) => `${l}.com`));
    const mixed = last(labels.map((l, i) => `${l}.${browsingMix[i]}`));
    const untested = last(labels.map((l) => `${l}.com`), { tldNull: null });
    expect(oneTld.tldP).toBeLessThan(0.01);
    expect(mixed.tldP).toBeGreaterThan(0.1);
    expect(untested.tldP).toBe(1);
    expect(oneTld.strength).toBeGreaterThan(mixed.strength + 1);
    expect(oneTld.strength).toBeGreaterThan(untested.strength + 1);
    const hits = fired(createDgaDetector(), labels.map((l, i) => observe(`${l}.com`, T0 + i * 3000)));
    expect(hits.at(-1)?.desc).toMatch(/, all under one TLD:/);
  });

  it('leaves the TLD test out, with its degree of freedom, for windows larger than its table', () => {
    const names = flightsimNames(36, 77);
    const strength = (tldNull?: null) => {
      const detector = createDgaDetector({ exactEvidence: true, maxDomainsPerHost: 40, ...(tldNull === null ? { tldNull } : {}) });
      names.forEach((n, i) => detector.inspect(observe(n, T0 + i * 1000)));
      return detector.lastEvidence!;
    };
    expect(strength().domains).toBeGreaterThan(32);
    expect(strength().tldP).toBe(1);
    expect(strength().strength).toBe(strength(null).strength);
  });

  it('leaves the kinship test out, with its degree of freedom, where fewer than two labels are free of digits', () => {
    const random = seededRandom(13);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const names = Array.from({ length: 12 }, (_, i) => {
      const label = Array.from({ length: 7 + (i % 4) }, () => letters[Math.floor(random() * letters.length)]);
      label[1 + Math.floor(random() * (label.length - 1))] = String(i % 10);
      return `${label.join('')}.${['com', 'net', 'org', 'info'][i % 4]}`;
    });
    const strength = (kinshipNull?: null) => {
      const detector = createDgaDetector({ exactEvidence: true, ...(kinshipNull === null ? { kinshipNull } : {}) });
      names.forEach((n, i) => detector.inspect(observe(n, T0 + i * 3000)));
      return detector.lastEvidence!.strength;
    };
    expect(strength()).toBeGreaterThan(0);
    expect(strength()).toBe(strength(null));
  });

  it('weighs short random labels (4-5 characters) by how alike and how short they all are', () => {
    const random = seededRandom(9);
    const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const names = Array.from({ length: 15 }, (_, i) => `${Array.from({ length: 4 + (i % 2) }, () => chars[Math.floor(random() * chars.length)]).join('')}.${['cf', 'tk', 'ga'][i % 3]}`);
    expect(fired(createDgaDetector(), names.map((n, i) => observe(n, T0 + i * 3000))).length).toBeGreaterThan(0);
  });

  it('judges a name under a dynamic DNS zone by the label below the zone, when it knows the zones', () => {
    const names = flightsimNames(12, 7).map((n) => `${n.slice(0, n.indexOf('.'))}.mooo.com`);
    const zone = (hostname: string) => (hostname.endsWith('.mooo.com') ? 'mooo.com' : undefined);
    const popularity = PopularitySet.fromText('# vigil popularity v1\n[top100k]\nmooo.com\n');
    expect(fired(createDgaDetector({ popularity, dynamicZone: zone }), names.map((n, i) => observe(n, T0 + i * 3000))).length).toBeGreaterThan(0);
    // Without the zone list every name is the provider's registered domain: one domain, nothing to weigh.
    expect(fired(createDgaDetector({ popularity }), names.map((n, i) => observe(n, T0 + i * 3000)))).toEqual([]);
  });

  it('re-reads a name once the intel lists name a new dynamic DNS zone above it', async () => {
    const dir = makeTempDir('dga-zones-');
    try {
      const intel = new IndicatorStore({ seed: false });
      const popularity = PopularitySet.fromText('# vigil popularity v1\n[top100k]\ndyn-zone.example.net\n');
      const detector = createDgaDetector({ popularity, dynamicZone: dynamicDnsZoneOf(intel) });
      const names = flightsimNames(12, 11).map((n) => `${n.slice(0, n.indexOf('.'))}.dyn-zone.example.net`);
      // Unknown as a zone, every name is the popular provider's own domain: nothing to count.
      expect(fired(detector, names.map((n, i) => observe(n, T0 + i * 3000)))).toEqual([]);

      const list = join(dir.path, 'zones.txt');
      writeFileSync(list, 'dyn-zone.example.net\n');
      await intel.loadList(list, 'lines', { label: 'freedns:dynamic-dns' });
      // The same names from another host, now judged by the label under the zone.
      expect(fired(detector, names.map((n, i) => observe(n, T0 + 60_000 + i * 3000, '10.0.0.77'))).length).toBeGreaterThan(0);
    } finally {
      dir.cleanup();
    }
  });

  it('does not count domains the network has used for longer than the novelty period', () => {
    const detector = createDgaDetector({ noveltyMs: 60 * 60_000 });
    const names = flightsimNames(15, 3);
    names.forEach((n, i) => detector.inspect(observe(n, T0 + i * 5 * 60_000, '10.0.0.9')));
    const later = T0 + 3 * 60 * 60_000;
    expect(fired(detector, names.map((n, i) => observe(n, later + i * 1000)))).toEqual([]);
  });

  it('keeps hosts and workspaces apart', () => {
    const detector = createDgaDetector();
    const events = flightsimNames(15, 4).map((n, i) => observe(n, T0 + i * 1000, `10.0.0.${i % 4}`, i % 2 === 0 ? 'ws-a' : 'ws-b'));
    expect(fired(detector, events)).toEqual([]);
  });

  it('bounds its state: LRU over hosts and remembered domains, capped domains per host', () => {
    const detector = createDgaDetector({ maxHosts: 20, maxDomainsPerHost: 8, maxRememberedDomains: 100 });
    const names = flightsimNames(600, 5);
    names.forEach((n, i) => detector.inspect(observe(n, T0 + i, `10.1.${Math.floor(i / 3) % 250}.1`)));
    flightsimNames(100, 6).forEach((n, i) => detector.inspect(observe(n, T0 + 1000 + i, '10.2.0.1')));
    const stats = detector.stateStats();
    expect(stats).toEqual({ keys: 20, maxKeys: 20, largestKey: 8, maxEntriesPerKey: 8 });
    expect(detector.rememberedDomains()).toEqual({ size: 100, max: 100 });
  });

  it('rejects options that cannot work', () => {
    expect(() => createDgaDetector({ minDistinctDomains: 0 })).toThrow(RangeError);
    expect(() => createDgaDetector({ minDistinctDomains: 10, maxDomainsPerHost: 5 })).toThrow(RangeError);
    expect(() => createDgaDetector({ windowMs: 0 })).toThrow(RangeError);
    expect(() => createDgaDetector({ maxHosts: 1.5 })).toThrow(RangeError);
    expect(() => createDgaDetector({ minStrength: 0 })).toThrow(RangeError);
  });
});
