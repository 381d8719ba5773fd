/**
 * Per-event cost of the Sigma engine with one rule and with every accepted rule of the SigmaHQ
 * network subset: `node -r ./tools/register.cjs libs/sigma/src/bench.ts [rules-network dir]`.
 */
import type { TelemetryType } from '@vigil/contracts';
import { createRng, POPULAR_DOMAINS, sharedDir } from '@vigil/testing';
import { compileCorpusRules } from './corpus-rules';
import { RuleSet } from './match/rule-set';
import type { CompiledRule } from './types';

const rulesDir = process.argv[2] ?? sharedDir('sigma', 'rules-network');
const rules: CompiledRule[] = compileCorpusRules(rulesDir);

const rng = createRng('sigma-bench');
const PATHS = ['/', '/index.html', '/api/v1/items', '/static/app.js', '/login', '/search', '/images/logo.png', '/wp-content/themes/x/style.css'];
const AGENTS = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', 'curl/8.4.0', 'python-requests/2.31'];
function event(type: TelemetryType, i: number): object {
  const domain = rng.pick(POPULAR_DOMAINS);
  const srcIP = `10.0.${i % 250}.${(i * 7) % 250}`;
  switch (type) {
    case 'dns':
      return { ts: '2025-01-01T00:00:00Z', srcIP, query: `${rng.chance(0.5) ? 'www.' : ''}${domain}`, qtype: rng.pick(['A', 'AAAA', 'TXT']) };
    case 'http':
      return {
        ts: '2025-01-01T00:00:00Z',
        srcIP,
        url: `https://${domain}${rng.pick(PATHS)}?id=${rng.int(1, 99999)}&q=${rng.string('abcdefghij', 8)}`,
        method: rng.pick(['GET', 'GET', 'POST']),
        status: 200,
        userAgent: rng.pick(AGENTS),
        referrer: `https://${rng.pick(POPULAR_DOMAINS)}/`,
      };
    default:
      return { ts: '2025-01-01T00:00:00Z', srcIP, destIP: `93.184.${i % 250}.${i % 200}`, destPort: rng.pick([443, 80, 53, 8080]), proto: 'tcp', action: 'allow' };
  }
}

const N = 20_000;
const types: TelemetryType[] = ['dns', 'http', 'ip'];
const stream = Array.from({ length: N }, (_, i) => ({ type: types[i % 3], event: event(types[i % 3], i) }));

/** ns per event of one pass over the items. */
function pass(set: RuleSet, items: typeof stream): number {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const { type, event: e } of items) sink += set.match(type, e).length;
  const ns = Number(process.hrtime.bigint() - start) / items.length;
  if (sink < 0) console.log(sink);
  return ns;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * ns per event with the one-rule set and with every rule, measured in alternating passes (after a
 * warm-up of both) and summarised by the median pass: the machine is shared, and a burst of other
 * load then hits both sides alike instead of skewing whichever was being timed.
 */
function compare(one: RuleSet, all: RuleSet, items: typeof stream): [number, number] {
  for (let round = 0; round < 2; round++) {
    pass(one, items);
    pass(all, items);
  }
  const ones: number[] = [];
  const alls: number[] = [];
  for (let round = 0; round < 9; round++) {
    ones.push(pass(one, items));
    alls.push(pass(all, items));
  }
  return [median(ones), median(alls)];
}

const all = RuleSet.compile(rules);
const rows: Array<[string, number, number]> = [];
for (const type of ['http', 'dns', 'ip'] as const) {
  const items = stream.filter((s) => s.type === type);
  // The single-rule baseline: the first accepted rule of the type (a contains/endswith rule in this corpus; for ip, IP equality).
  const one = RuleSet.compile([rules.find((r) => r.eventTypes.includes(type)) as CompiledRule]);
  rows.push([type, ...compare(one, all, items)]);
}
const firstOf = (type: TelemetryType) => rules.find((r) => r.eventTypes.includes(type)) as CompiledRule;
// The historical mixed baseline has no ip rule, so its ip events cost nothing; the second row adds one.
const mixedOne = RuleSet.compile([firstOf('http'), firstOf('dns')]);
rows.push(['mixed dns/http/ip (1 rule per type)', ...compare(mixedOne, all, stream)]);
rows.push(['mixed, baseline with an ip rule too', ...compare(RuleSet.compile([firstOf('http'), firstOf('dns'), firstOf('ip')]), all, stream)]);

console.log(`Sigma engine: ${rules.length} accepted rules, ${N} events, ns per event`);
console.log('events'.padEnd(38), '1 rule'.padStart(10), `${rules.length} rules`.padStart(12), 'ratio'.padStart(8));
for (const [name, one, many] of rows) console.log(name.padEnd(38), one.toFixed(0).padStart(10), many.toFixed(0).padStart(12), (many / one).toFixed(2).padStart(8));
