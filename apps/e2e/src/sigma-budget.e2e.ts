import * as fs from 'node:fs';
import * as path from 'node:path';
import { LocalBus } from '@vigil/bus';
import { ALL_TOPICS, decodeRuleSetRecord, encodeRuleSetRecord, TOPICS, type WorkspaceRuleSet } from '@vigil/contracts';
import { writeZip, type ZipEntryInput } from '@vigil/rules';
import { api, eventually, startVigil, tempDataDir, toNdjson, type VigilProcess } from '@vigil/testing';

/**
 * SIGMA_BUDGET end to end: a customer rule's every cost is bounded before it is paid (uploads are answered 400
 * naming the file and the limit, fast, without growing the server), and a stored rule that the scoring engines
 * cannot load is quarantined and reported while the workspace's other rules keep firing.
 */

const MB = 1024 * 1024;
const zipHeaders = { 'content-type': 'application/zip' };
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
let vigil: VigilProcess;
/** Ours, not startVigil's: a test starts the server again on it. */
const dataDir = tempDataDir();

beforeAll(async () => {
  // Ready means the upload validation thread has loaded the Sigma engine too: the first upload does not wait for it.
  vigil = await startVigil({ dataDir, env: { VIGIL_VISIBILITY_DELAY_MS: '200', VIGIL_RATE_LIMIT: '100000/60s' } });
});

afterAll(async () => {
  await vigil?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function rule(n: number, detection: string): string {
  return `title: Rule ${n}\nid: ${ID(n)}\nstatus: test\nlevel: high\nlogsource:\n  category: dns\ndetection:\n${detection}\n`;
}

/** The reported attack: one anchored flow list of `items` one-letter values, aliased by 98 more selections (99 aliases of it in all). */
function aliasAmplified(items: number): string {
  const selections = Array.from({ length: 98 }, (_, i) => `  sel${i + 1}:\n    query|contains: *big\n`).join('');
  return rule(900, `  sel0:\n    query|contains: &big [${Array.from({ length: items }, () => 'a').join(',')}]\n${selections}  condition: 1 of sel*`);
}

async function metric(name: string): Promise<number | undefined> {
  const text = (await api(vigil, 'GET', '/metrics', { key: null })).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

const rss = async () => {
  const value = await metric('vigil_process_resident_memory_bytes');
  if (value === undefined) throw new Error('no vigil_process_resident_memory_bytes in /metrics');
  return value;
};

async function expectStillServing(): Promise<void> {
  expect((await api(vigil, 'GET', '/readyz', { key: null })).status).toBe(200);
  expect((await api(vigil, 'GET', '/v1/detections')).status).toBe(200);
}

/** Uploads, timing the answer and measuring the server's resident memory before and after. */
async function upload(entries: ZipEntryInput[], query = '?dry_run=true') {
  const body = writeZip(entries);
  const before = await rss();
  const started = performance.now();
  const res = await api(vigil, 'POST', `/v1/detections${query}`, { body, headers: zipHeaders });
  const ms = performance.now() - started;
  return { res, ms, rssGrowth: (await rss()) - before, zipBytes: body.length };
}

describe('POST /v1/detections: the YAML budget is enforced before the YAML costs anything', () => {
  it.each([
    ['450,000 items', 450_000, 'amplified.yml'],
    ['20,000 items', 20_000, 'amplified-20k.yml'],
  ])('an alias-amplified rule of %s aliased 99 times: 400 naming the file and the limit, before parsing, in under 1 s, RSS growth under 100 MB', async (_what, items, name) => {
    const probe = await upload([{ name, data: aliasAmplified(items) }]);
    expect(probe.res.status).toBe(400);
    expect(probe.res.body.validationResult).toEqual({
      valid: 0,
      invalid: 1,
      errors: [{ fileName: name, error: 'YAML budget exceeded: the file has more than 16000 structural tokens (list items, keys, separators); the limit is 16000 per file (SIGMA_BUDGET.yaml.maxStructuralTokens)' }],
    });
    expect(probe.ms).toBeLessThan(1000);
    expect(probe.rssGrowth).toBeLessThan(100 * MB);
    await expectStillServing();
  });

  it('an alias-amplified rule of 5,000 items is parsed in the validation thread but refused before its aliases expand', async () => {
    const probe = await upload([{ name: 'amplified-5k.yml', data: aliasAmplified(5_000) }]);
    expect(probe.res.status).toBe(400);
    expect(probe.res.body.validationResult.errors).toEqual([
      { fileName: 'amplified-5k.yml', error: expect.stringMatching(/^YAML budget exceeded: the document expands to 4954\d\d nodes once its aliases are expanded; the limit is 32000 per document \(SIGMA_BUDGET\.yaml\.maxExpandedNodes\)$/) },
    ]);
    // Parsing 5,000 items takes the YAML parser a few hundred milliseconds (more on a busy machine).
    expect(probe.ms).toBeLessThan(2000);
    expect(probe.rssGrowth).toBeLessThan(100 * MB);
    await expectStillServing();
  });

  it('the 450,000-item archive is 0.9 MB of YAML in a zip of a few KB, and nothing of it is stored', async () => {
    const probe = await upload([{ name: 'amplified.yml', data: aliasAmplified(450_000) }], '');
    expect(probe.zipBytes).toBeLessThan(16 * 1024);
    expect(probe.res.status).toBe(400);
    expect(probe.res.body.message).toBe('1 rule failed validation; the 0 valid rules were stored');
    expect((await api(vigil, 'GET', '/v1/detections')).body.rules).toEqual([]);
  });

  it('refuses a rule over its value budget, naming the file and SIGMA_BUDGET.rule.maxValues', async () => {
    const values = Array.from({ length: 10_001 }, (_, i) => `      - .v${i}.test`).join('\n');
    const probe = await upload([{ name: 'many-values.yml', data: rule(901, `  sel:\n    query|endswith:\n${values}\n  condition: sel`) }]);
    expect(probe.res.status).toBe(400);
    expect(probe.res.body.validationResult.errors).toEqual([
      { fileName: 'many-values.yml', error: 'rule budget exceeded: 10001 detection values; the limit is 10000 per rule (SIGMA_BUDGET.rule.maxValues)' },
    ]);
    expect(probe.ms).toBeLessThan(5000);
  });
});

describe('POST /v1/detections: archives and patterns that cannot be run as written', () => {
  it('refuses a zip holding the same entry name twice, naming it, and stores nothing', async () => {
    const twice = [
      { name: 'rules/twice.yml', data: rule(902, '  sel:\n    query: a.test\n  condition: sel') },
      { name: 'rules/twice.yml', data: rule(903, '  sel:\n    query: b.test\n  condition: sel') },
    ];
    const probe = await upload(twice, '');
    expect(probe.res.status).toBe(400);
    expect(probe.res.body).toEqual({
      message: 'The archive holds more than one entry named "rules/twice.yml"; nothing was stored',
      validationResult: { valid: 0, invalid: 1, errors: [{ fileName: 'rules/twice.yml', error: 'The archive holds more than one entry named "rules/twice.yml"' }] },
    });
    expect((await api(vigil, 'GET', '/v1/detections')).body.rules).toEqual([]);
  });

  it("refuses the backreference (a*)\\1$ as the README says; '(a*)\\\\1$' is a literal backslash, not a backreference", async () => {
    const refused = await upload([{ name: 'backref.yml', data: rule(904, "  sel:\n    query|re: '(a*)\\1$'\n  condition: sel") }]);
    expect(refused.res.status).toBe(400);
    expect(refused.res.body.validationResult.errors).toEqual([{ fileName: 'backref.yml', error: expect.stringMatching(/backreferences such as \\1 are not supported$/) }]);
    const literal = await upload([{ name: 'literal.yml', data: rule(905, "  sel:\n    query|re: '(a*)\\\\1$'\n  condition: sel") }]);
    expect(literal.res.body).toEqual({ accepted: 1 });
  });
});

describe('a stored rule the scoring engine cannot load is quarantined; the other rules keep firing', () => {
  const good = rule(910, "  sel:\n    query|endswith: '.quarantine-good.test'\n  condition: sel");
  const later = rule(911, "  sel:\n    query|endswith: '.quarantine-bad.test'\n  condition: sel");

  it('reports it by GET /v1/detections and in the metrics, after the record reached the engine', async () => {
    const stored = await api(vigil, 'POST', '/v1/detections', { body: writeZip([{ name: 'good.yml', data: good }, { name: 'bad.yml', data: later }]), headers: zipHeaders });
    expect(stored.body).toEqual({ accepted: 2 });
    const listed = (await api(vigil, 'GET', '/v1/detections')).body.rules as Array<{ id: string; state: string; updatedAt: string }>;
    expect(listed.map((r) => [r.id, r.state])).toEqual([[ID(910), 'active'], [ID(911), 'active']]);

    // An engine change (here: a hand-made record) makes the stored version of rule 911 fail to compile.
    await vigil.stop();
    const bus = await LocalBus.open({ dir: path.join(vigil.dataDir, 'bus'), topics: ALL_TOPICS, log: () => undefined });
    const sets: WorkspaceRuleSet[] = [];
    const reader = await bus.subscribe({ topic: TOPICS.rules.name }, async (batch) => {
      for (const record of batch.records) sets.push(decodeRuleSetRecord(record.value));
    });
    await reader.caughtUp;
    await reader.close();
    const current = sets[sets.length - 1];
    const broken: WorkspaceRuleSet = {
      ...current,
      version: current.version + 1_000_000,
      rules: current.rules.map((r) => (r.id === ID(911) ? { ...r, source: r.source.replace("query|endswith: '.quarantine-bad.test'", "query|nosuchmodifier: '.quarantine-bad.test'") } : r)),
    };
    await bus.publish(TOPICS.rules.name, [{ key: current.workspaceId, value: encodeRuleSetRecord(broken) }]);
    await bus.close();
    vigil = await startVigil({ dataDir: vigil.dataDir, key: vigil.key, env: { VIGIL_VISIBILITY_DELAY_MS: '200', VIGIL_RATE_LIMIT: '100000/60s' } });

    const states = await eventually(async () => {
      const rules = (await api(vigil, 'GET', '/v1/detections')).body.rules as Array<{ id: string; state: string; reason?: string }>;
      return rules.some((r) => r.state === 'quarantined') ? rules : undefined;
    }, 30_000, 300);
    expect(states.map(({ id, state, reason }) => ({ id, state, reason }))).toEqual([
      { id: ID(910), state: 'active', reason: undefined },
      { id: ID(911), state: 'quarantined', reason: expect.stringMatching(/unknown modifier 'nosuchmodifier'/) },
    ]);
    expect(await metric('vigil_sigma_rules_quarantined')).toBe(1);
    expect(await metric('vigil_sigma_rule_quarantines_total{cause="compile"}')).toBe(1);

    const ts = new Date().toISOString();
    const finding = await eventually(async () => {
      await api(vigil, 'POST', '/v1/events/dns', {
        body: toNdjson([
          { ts, srcIP: '10.60.0.1', query: 'x.quarantine-good.test', qtype: 'A' },
          { ts, srcIP: '10.60.0.2', query: 'x.quarantine-bad.test', qtype: 'A' },
        ]),
      });
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf&maxAge=30d');
      return (page.body.records as Array<{ finding_info: { analytic: { uid: string } } }>).find((f) => f.finding_info.analytic.uid === `sigma:${ID(910)}`);
    }, 30_000, 500);
    expect(finding).toBeDefined();
    const all = (await api(vigil, 'GET', '/v1/findings?schema=ocsf&maxAge=30d')).body.records as Array<{ finding_info: { analytic: { uid: string } } }>;
    expect(all.map((f) => f.finding_info.analytic.uid)).not.toContain(`sigma:${ID(911)}`);
    await expectStillServing();
  });
});
