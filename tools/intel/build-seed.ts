/**
 * Builds the compact threat-intelligence seed `libs/detection-engine/data/intel/seed.vigil.gz` from the shared
 * reference data (`<shared>/data/intel`, `<shared>/data/infra`, `<shared>/data/benign`) and `tools/intel/curated.vigil`.
 *
 *   node -r ./tools/register.cjs tools/intel/build-seed.ts [--shared <dir>] [--out <file>]
 *
 * `--shared` defaults to the shared folder next to the repository (`sharedDir()`, `VIGIL_SHARED_DIR`).
 * The output is deterministic: the same inputs give the same bytes. Format: `libs/detection-engine/data/intel/README.md`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sharedDir } from '@vigil/testing';
import type { IndicatorKind, IndicatorRecord } from '../../libs/detection-engine/src/intel/indicator';
import { IndicatorIndex, IndicatorIndexBuilder } from '../../libs/detection-engine/src/intel/indicator-index';
import { parseList } from '../../libs/detection-engine/src/intel/list-formats';
import { normaliseDomain, normaliseUrl, parseIp } from '../../libs/detection-engine/src/intel/normalise';

const REPO = path.resolve(__dirname, '../..');

interface Args {
  shared: string;
  out: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { shared: sharedDir(), out: path.join(REPO, 'libs/detection-engine/data/intel/seed.vigil.gz') };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--shared' && value) (args.shared = path.resolve(value)), i++;
    else if (argv[i] === '--out' && value) (args.out = path.resolve(value)), i++;
    else throw new Error(`unknown argument ${argv[i]} (usage: build-seed.ts [--shared <dir>] [--out <file>])`);
  }
  return args;
}

/** Display names for the best-known families, as analysts write them; other families keep maltrail's name. */
const FAMILY_NAMES: Readonly<Record<string, string>> = {
  cobaltstrike: 'Cobalt Strike',
  emotet: 'Emotet',
  trickbot: 'TrickBot',
  qakbot: 'QakBot',
  icedid: 'IcedID',
  bazarloader: 'BazarLoader',
  asyncrat: 'AsyncRAT',
  njrat: 'njRAT',
  remcos: 'Remcos',
  redline: 'RedLine',
  lummac2: 'Lumma',
  vidar: 'Vidar',
  formbook: 'FormBook',
  nanocore: 'NanoCore',
  quasarrat: 'QuasarRAT',
  dcrat: 'DCRat',
  xworm: 'XWorm',
  agenttesla: 'Agent Tesla',
  elf_mirai: 'Mirai',
  elf_gafgyt: 'Gafgyt',
  amadey: 'Amadey',
  smokeloader: 'SmokeLoader',
  sliver: 'Sliver',
  havoc: 'Havoc',
  mythic: 'Mythic',
  metasploit: 'Metasploit',
  brc4: 'Brute Ratel C4',
  covenant: 'Covenant',
  nimplant: 'NimPlant',
  nighthawk: 'Nighthawk',
  interlock: 'Interlock',
  apt_gamaredon: 'Gamaredon',
  apt_kimsuky: 'Kimsuky',
  apt_muddywater: 'MuddyWater',
  apt_transparenttribe: 'Transparent Tribe',
};

/** Frameworks in maltrail's `malicious` trails that are command-and-control servers. */
const MALICIOUS_C2 = new Set([
  'sliver', 'havoc', 'mythic', 'metasploit', 'viper', 'brc4', 'covenant', 'nimplant', 'nighthawk', 'python_byob',
  'coreimpact', 'redguard', 'redwarden', 'elf_reversessh', 'c2_panel',
]);

/** Categories of maltrail's `suspicious` trails kept in the seed, with the label they get. */
const SUSPICIOUS_LABELS: Readonly<Record<string, string>> = {
  crypto_mining: 'miner:pool',
  onion: 'tor:tor2web',
  dynamic_domain: 'freedns:dynamic-dns',
  dns_tunneling_service: 'tunnel:dns-tunnel-service',
  port_proxy: 'tunnel:port-proxy',
  gosimpletunnel: 'tunnel:gost',
  i2p: 'anon:i2p',
  anonymous_web_proxy: 'anon:web-proxy',
  ipinfo: 'ip_lookup:ip-lookup',
};

/**
 * Most indicators per maltrail family. Trail files grow at the end, so the last entries are the newest; the
 * full trails can still be loaded at run time (`loadList(<shared>/data/intel/malware.tsv, 'tsv', ...)`).
 */
const MAX_PER_FAMILY = 2500;

/** Categories whose indicators accuse a destination; these are dropped when the destination is popular. */
const THREAT_CATEGORIES = new Set(['c2', 'malicious', 'miner', 'sinkhole']);

/**
 * First-party networks of the largest services (published by their operators), added to maltrail's CDN ranges:
 * their addresses front millions of benign sites and users, so an address-level threat indicator inside them
 * (usually a stale resolution of a malicious name, or a C2 behind a CDN) flags ordinary traffic. Domain and URL
 * indicators of the same threats are kept.
 */
const SHARED_SERVICE_NETWORKS: readonly string[] = [
  // Google
  '142.250.0.0/15', '172.217.0.0/16', '172.253.0.0/16', '216.58.192.0/19', '74.125.0.0/16', '173.194.0.0/16',
  '209.85.128.0/17', '108.177.0.0/17',
  // Microsoft (Microsoft 365, Entra ID, Front Door, Bing)
  '13.107.0.0/16', '52.96.0.0/14', '20.190.128.0/18', '40.126.0.0/18', '204.79.197.0/24',
  // Meta
  '31.13.24.0/21', '31.13.64.0/18', '157.240.0.0/16', '179.60.192.0/22', '129.134.0.0/16',
  // Apple
  '17.0.0.0/8',
  // Akamai, GitHub
  '23.32.0.0/11', '23.192.0.0/11', '185.199.108.0/22', '140.82.112.0/20',
];

/** Path-only URL trails shorter than this match too much ordinary traffic on arbitrary hosts. */
const MIN_PATH_ONLY_LENGTH = 10;

function labelMalware(family: string): string {
  if (family.startsWith('sinkhole_')) return `sinkhole:${family.slice('sinkhole_'.length)}`;
  if (/(?:^|_)(?:\w*miner|coinminer|wannamine|rediswannamine)$/.test(family)) return `miner:${family}`;
  return `c2:${FAMILY_NAMES[family] ?? family}`;
}

function labelMalicious(family: string): string | undefined {
  if (family === 'interactsh') return 'oast:interactsh';
  if (family === 'ligolo_tunnel') return 'tunnel:ligolo';
  if (family === 'rogue_dns') return 'resolver:rogue';
  if (family === 'family') return undefined;
  if (MALICIOUS_C2.has(family) || family.endsWith('_c2')) return `c2:${FAMILY_NAMES[family] ?? family}`;
  return `malicious:${family}`;
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0);
}

/** Names that must never be flagged: the popularity lists and maltrail's own whitelist. */
function benignNames(shared: string): Set<string> {
  const names = new Set<string>();
  for (const file of ['cloudflare-top100k.txt', 'cisco-top20k.txt', 'tranco10k.txt', 'majestic-top10k.txt']) {
    for (const name of lines(path.join(shared, 'data/benign', file))) names.add(name);
  }
  for (const entry of lines(path.join(shared, 'data/infra/maltrail-whitelist.txt'))) names.add(entry.toLowerCase());
  return names;
}

/** An index of the shared networks: maltrail's CDN ranges plus {@link SHARED_SERVICE_NETWORKS}. */
function sharedNetworks(shared: string): IndicatorIndex {
  const builder = new IndicatorIndexBuilder(Number.MAX_SAFE_INTEGER);
  const networks = [...lines(path.join(shared, 'data/infra/cdn-ranges.txt')), ...SHARED_SERVICE_NETWORKS];
  for (const cidr of networks) builder.add({ kind: 'cidr', value: cidr, label: 'shared:network', source: 'build-seed' });
  return builder.build();
}

class SeedCollector {
  private readonly groups = new Map<string, Set<string>>();
  readonly dropped: Record<string, number> = {};

  constructor(
    private readonly benign: ReadonlySet<string>,
    private readonly shared: IndicatorIndex,
  ) {}

  add(kind: IndicatorKind, value: string, label: string, source: string): void {
    // Only threat labels are checked against the benign lists: a popular resolver or dynamic DNS zone is still one.
    const record = this.rewrite(kind, value, THREAT_CATEGORIES.has(label.slice(0, label.indexOf(':'))));
    if (typeof record === 'string') {
      this.dropped[record] = (this.dropped[record] ?? 0) + 1;
      return;
    }
    const key = `${record.kind}\t${label}\t${source}`;
    let group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, (group = new Set()));
    group.add(record.value);
  }

  /** Canonical value to store, or the reason it is left out. */
  private rewrite(kind: IndicatorKind, value: string, threat: boolean): { kind: IndicatorKind; value: string } | string {
    if (kind === 'domain') {
      const domain = normaliseDomain(value);
      if (domain === undefined) return 'invalid';
      // Every .onion lookup is caught by the Tor detection; listing addresses one by one adds nothing.
      if (domain.endsWith('.onion')) return 'onion (covered by the Tor rule)';
      if (threat && this.benign.has(domain)) return 'benign (popular or whitelisted)';
      return { kind, value: domain };
    }
    if (kind === 'ip' || kind === 'cidr' || kind === 'ip_port') {
      const host = kind === 'ip_port' ? value.replace(/:\d+$/, '').replace(/^\[|\]$/g, '') : value.split('/')[0];
      if (threat && this.benign.has(host)) return 'benign (popular or whitelisted)';
      if (threat && this.shared.matchIp(host).length > 0) return 'address in a CDN or first-party service network';
      return { kind, value };
    }
    if (kind === 'url') {
      const url = normaliseUrl(value);
      if (url === undefined) return 'invalid';
      if (url.host === '') return url.path.length < MIN_PATH_ONLY_LENGTH ? 'short path-only URL' : { kind, value: url.path };
      const bareHost = url.host.replace(/:\d+$/, '');
      if (threat && this.benign.has(bareHost)) return 'benign (popular or whitelisted)';
      // A URL trail without a path names the whole host: store it as that host.
      if (threat && parseIp(bareHost) !== undefined && this.shared.matchIp(bareHost).length > 0) return 'address in a CDN or first-party service network';
      if (url.path === '' && !url.host.includes(':')) {
        return parseIp(url.host) !== undefined ? { kind: 'ip', value: url.host } : this.rewrite('domain', url.host, threat);
      }
      return { kind, value: url.host + url.path };
    }
    return { kind, value };
  }

  /** `vigil` format text: groups ordered by kind, label, source; values sorted (compresses well, diffs well). */
  render(header: string[]): string {
    const out = [...header.map((line) => `# ${line}`)];
    for (const key of [...this.groups.keys()].sort()) {
      out.push(`@${key}`);
      for (const value of [...this.groups.get(key)!].sort()) out.push(value);
    }
    return `${out.join('\n')}\n`;
  }
}

/** Visits the newest {@link MAX_PER_FAMILY} rows of each family of a trail TSV. */
function readTsv(file: string, visit: (value: string, kind: IndicatorKind, family: string) => void): void {
  const byFamily = new Map<string, IndicatorRecord[]>();
  parseList(readFileSync(file, 'utf8'), 'tsv', { source: file, category: 'x' }, (record: IndicatorRecord) => {
    const family = record.label.slice(2);
    let rows = byFamily.get(family);
    if (rows === undefined) byFamily.set(family, (rows = []));
    rows.push(record);
  });
  for (const [family, rows] of byFamily) {
    for (const record of rows.slice(-MAX_PER_FAMILY)) visit(record.value, record.kind, family);
  }
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const intel = path.join(args.shared, 'data/intel');
  const infra = path.join(args.shared, 'data/infra');
  const seed = new SeedCollector(benignNames(args.shared), sharedNetworks(args.shared));

  readTsv(path.join(intel, 'malware.tsv'), (value, kind, family) => seed.add(kind, value, labelMalware(family), 'maltrail:malware'));
  readTsv(path.join(intel, 'malicious.tsv'), (value, kind, family) => {
    const label = labelMalicious(family);
    if (label !== undefined) seed.add(kind, value, label, 'maltrail:malicious');
  });
  readTsv(path.join(intel, 'suspicious.tsv'), (value, kind, family) => {
    const label = SUSPICIOUS_LABELS[family];
    if (label !== undefined) seed.add(kind, value, label, 'maltrail:suspicious');
  });

  for (const ip of lines(path.join(infra, 'sinkholes.txt'))) seed.add(ip.includes('/') ? 'cidr' : 'ip', ip, 'sinkhole:known', 'misp:sinkholes');
  for (const zone of lines(path.join(infra, 'dynamic-dns.txt'))) seed.add('domain', zone, 'freedns:dynamic-dns', 'misp:dynamic-dns');
  for (const file of ['public-dns-v4.txt', 'public-dns-v6.txt']) {
    for (const ip of lines(path.join(infra, file))) seed.add(ip.includes('/') ? 'cidr' : 'ip', ip, 'resolver:public', `misp:${file.replace('.txt', '')}`);
  }
  for (const net of lines(path.join(infra, 'telegram-ips.txt'))) seed.add(net.includes('/') ? 'cidr' : 'ip', net, 'telegram:network', 'misp:telegram-ips');

  parseList(readFileSync(path.join(__dirname, 'curated.vigil'), 'utf8'), 'vigil', { source: 'vigil:curated' }, (record) =>
    seed.add(record.kind, record.value, record.label, record.source),
  );

  const text = seed.render([
    'vigil-intel 1',
    'Built by tools/intel/build-seed.ts from the shared reference data (maltrail trails, MIT; MISP warning lists, CC0)',
    'and tools/intel/curated.vigil. Format: libs/detection-engine/data/intel/README.md',
  ]);
  // Index the result exactly as the store will, to prove it loads and to report what it holds.
  const builder = new IndicatorIndexBuilder(Number.MAX_SAFE_INTEGER);
  parseList(text, 'vigil', { source: 'seed' }, (record) => builder.add(record));
  const index = builder.build();
  if (builder.invalidCount > 0) throw new Error(`${builder.invalidCount} seed indicators do not load; fix the build`);

  const gz = gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
  writeFileSync(args.out, gz);
  console.log(`wrote ${path.relative(REPO, args.out)}: ${gz.length} bytes gzip (${text.length} plain), ${index.size} indicators`);
  console.log('by kind:', JSON.stringify(index.counts));
  console.log('left out:', JSON.stringify(seed.dropped));
}

main();
