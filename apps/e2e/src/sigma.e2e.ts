import { readFileSync } from 'node:fs';
import { writeZip, type ZipEntryInput } from '@vigil/rules';
import { api, assertValidOcsfFinding, eventually, sharedDir, startVigil, toNdjson, type VigilProcess } from '@vigil/testing';

const NETWORK = sharedDir('sigma', 'rules-network');
const TRIANGULATION = 'rules-emerging-threats/2023/TA/EquationGroup/net_dns_apt_equation_group_triangulation_c2_coms.yml';
const URSNIF = 'rules-emerging-threats/2019/Malware/Ursnif/proxy_malware_ursnif_c2_url.yml';
const EQUATION = 'rules-emerging-threats/2017/TA/Equation-Group/net_firewall_apt_equationgroup_c2.yml';
const IDS = {
  triangulation: '7fc30d63-728d-48d9-ad6f-14d14f4accf7',
  ursnif: '932ac737-33ca-4afd-9869-0d48b391fcc9',
  equation: '881834a4-6659-4773-821e-1c151789d873',
};

interface ManifestEntry {
  tier: string;
  logsource: { category?: string; product?: string; service?: string };
}

/** The three rules the events below match, plus the first web rules of the corpus (all network logsources Vigil feeds). */
function sampleRules(): ZipEntryInput[] {
  const manifest = JSON.parse(readFileSync(`${NETWORK}/manifest.json`, 'utf8')) as { rules: Record<string, ManifestEntry> };
  const web = Object.entries(manifest.rules)
    .filter(([, entry]) => entry.tier === 'A-web-generic')
    .map(([file]) => file)
    .slice(0, 20);
  return [...new Set([TRIANGULATION, URSNIF, EQUATION, ...web])].map((file) => ({ name: `sigma/${file}`, data: readFileSync(`${NETWORK}/${file}`) }));
}

const zipHeaders = { 'content-type': 'application/zip' };
let vigil: VigilProcess;
let sample: ZipEntryInput[];

beforeAll(async () => {
  vigil = await startVigil({ env: { VIGIL_VISIBILITY_DELAY_MS: '200' } });
  sample = sampleRules();
});

afterAll(async () => {
  await vigil?.stop();
});

const findingsFor = async (ids: string[]) =>
  eventually(async () => {
    const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf&maxAge=30d');
    const found = (page.body.records as any[]).filter((f) => ids.includes(String(f.finding_info.analytic.uid).replace('sigma:', '')));
    return new Set(found.map((f) => f.finding_info.analytic.uid)).size === ids.length ? found : undefined;
  }, 20_000);

describe('POST /v1/detections: upload, distribution and scoring of SigmaHQ rules', () => {
  it('accepts a sample of rules-network rules, ignoring files that are not rules', async () => {
    const dry = await api(vigil, 'POST', '/v1/detections?dry_run=true', { body: writeZip(sample), headers: zipHeaders });
    expect(dry.body).toEqual({ accepted: sample.length });
    expect((await api(vigil, 'GET', '/v1/detections')).body).toEqual({ rules: [] });

    const res = await api(vigil, 'POST', '/v1/detections?import_mode=merge', { body: writeZip([...sample, { name: 'LICENSE.txt', data: 'DRL 1.1' }]), headers: zipHeaders });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accepted: sample.length, ignored: ['LICENSE.txt'] });
    const listed = await api(vigil, 'GET', '/v1/detections');
    expect(listed.body.rules).toHaveLength(sample.length);
    expect(listed.body.rules.find((r: any) => r.id === IDS.ursnif)).toMatchObject({ title: 'Ursnif Malware C2 URL Pattern', level: 'critical', status: 'stable', kind: 'rule' });
  });

  it('scores events of every type against the uploaded rules and serves valid OCSF findings and alerts', async () => {
    const ts = new Date().toISOString();
    const posts = await Promise.all([
      api(vigil, 'POST', '/v1/events/dns', { body: toNdjson([{ ts, srcIP: '10.40.0.1', query: 'backuprabbit.com', qtype: 'A' }, { ts, srcIP: '10.40.0.1', query: 'example.com' }]) }),
      api(vigil, 'POST', '/v1/events/http', { body: toNdjson([{ ts, srcIP: '10.40.0.2', url: 'http://cdn.example.net/images/a_2fb.avi', method: 'GET' }]) }),
      api(vigil, 'POST', '/v1/events/ip', { body: toNdjson([{ ts, srcIP: '10.40.0.3', destIP: '69.42.98.86', destPort: 443, proto: 'tcp' }]) }),
    ]);
    expect(posts.map((p) => p.status)).toEqual([200, 200, 200]);

    const findings = await findingsFor([IDS.triangulation, IDS.ursnif, IDS.equation]);
    for (const finding of findings) assertValidOcsfFinding(finding);
    const byRule = Object.fromEntries(findings.map((f) => [f.finding_info.analytic.uid, f]));
    expect(byRule[`sigma:${IDS.triangulation}`]).toMatchObject({
      severity_id: 4,
      finding_info: { title: 'Potential Operation Triangulation C2 Beaconing Activity - DNS' },
      unmapped: { sigma: { id: IDS.triangulation, author: 'Florian Roth (Nextron Systems)' } },
      device: { ip: '10.40.0.1' },
    });
    expect(byRule[`sigma:${IDS.ursnif}`]).toMatchObject({ severity_id: 5, unmapped: { sigma: { author: 'Thomas Patzke' } } });
    expect(byRule[`sigma:${IDS.ursnif}`].finding_info.attacks.length).toBeGreaterThan(0);
    expect(byRule[`sigma:${IDS.equation}`].device.ip).toBe('10.40.0.3');

    const alerts = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/alerts?maxAge=1h');
      const sigma = (page.body.alerts as any[]).filter((a) => a.threats.includes('customer_sigma_rule'));
      return sigma.length >= 3 ? page.body : undefined;
    });
    expect(alerts.threats.customer_sigma_rule).toEqual(expect.objectContaining({ title: expect.any(String), severity: expect.any(Number) }));
  });

  it('compiles expand rules with the placeholders.yml of the upload, and names a placeholder that is missing', async () => {
    const id = '00000000-0000-4000-8000-0000000e2e01';
    const expandRule = `title: Query for a workspace C2 domain\nid: ${id}\nstatus: test\nlevel: high\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|expand: '%c2_domains%'\n  condition: sel\n`;
    const missing = await api(vigil, 'POST', '/v1/detections?dry_run=true', { body: writeZip([{ name: 'c2.yml', data: expandRule }]), headers: zipHeaders });
    expect(missing.status).toBe(400);
    expect(missing.body.validationResult.errors).toEqual([{ fileName: 'c2.yml', error: expect.stringContaining('placeholder %c2_domains% is not configured') }]);

    const res = await api(vigil, 'POST', '/v1/detections', {
      body: writeZip([{ name: 'placeholders.yml', data: "c2_domains: ['*.e2e-c2.test']\n" }, { name: 'c2.yml', data: expandRule }]),
      headers: zipHeaders,
    });
    expect(res.body).toEqual({ accepted: 1 });
    const ts = new Date().toISOString();
    const sent = await eventually(async () => {
      // The rule set reaches the scoring engine asynchronously: send until the finding shows up.
      await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson([{ ts, srcIP: '10.40.0.9', query: 'beacon.e2e-c2.test', qtype: 'A' }]) });
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf&maxAge=30d');
      return (page.body.records as any[]).find((f) => f.finding_info.analytic.uid === `sigma:${id}`);
    }, 20_000, 500);
    assertValidOcsfFinding(sent);
    expect(sent).toMatchObject({ device: { ip: '10.40.0.9' }, finding_info: { title: 'Query for a workspace C2 domain' } });
  });

  it('replaces the rule set: removed rules stop firing', async () => {
    const res = await api(vigil, 'POST', '/v1/detections?import_mode=replace', { body: writeZip(sample.filter((e) => e.name.endsWith(URSNIF))), headers: zipHeaders });
    expect(res.body).toEqual({ accepted: 1 });
    expect((await api(vigil, 'GET', '/v1/detections')).body.rules.map((r: any) => r.id)).toEqual([IDS.ursnif]);
  });
});

describe('POST /v1/detections: bad uploads are refused fast, and the service keeps serving', () => {
  const refused = async (body: Buffer, headers = zipHeaders, query = '') => {
    const started = Date.now();
    const res = await api(vigil, 'POST', `/v1/detections${query}`, { body, headers });
    expect(Date.now() - started).toBeLessThan(5000);
    return res;
  };
  const rule = (n: number) => `title: Rule ${n}\nid: 00000000-0000-4000-8000-${String(n).padStart(12, '0')}\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query: x${n}.test\n  condition: sel\n`;

  it('answers 415 for another content type and 401 without a key', async () => {
    const wrongType = await refused(writeZip([{ name: 'a.yml', data: rule(1) }]), { 'content-type': 'application/json' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.message).toMatch(/application\/zip/);
    expect((await api(vigil, 'POST', '/v1/detections', { body: writeZip([]), headers: zipHeaders, key: null })).status).toBe(401);
  });

  it('refuses invalid parameters, a non-zip, a truncated zip, traversal names, 5,001 files, a 1.1 MB rule and a bomb', async () => {
    const cases: Array<[string, Buffer, string, RegExp]> = [
      ['bad import_mode', writeZip([{ name: 'a.yml', data: rule(1) }]), '?import_mode=append', /import_mode "append"/],
      ['bad dry_run', writeZip([{ name: 'a.yml', data: rule(1) }]), '?dry_run=maybe', /dry_run "maybe"/],
      ['not a zip', Buffer.from('title: plain yaml\n'), '', /not a zip archive/],
      ['truncated', writeZip([{ name: 'a.yml', data: rule(1) }, { name: 'b.yml', data: rule(2) }]).subarray(0, 90), '', /corrupt or truncated/],
      ['traversal', writeZip([{ name: '../../etc/x.yml', data: rule(3) }]), '', /path traversal/],
      ['absolute', writeZip([{ name: '/etc/x.yml', data: rule(3) }]), '', /absolute path/],
      ['5,001 files', writeZip(Array.from({ length: 5001 }, (_, i) => ({ name: `r${i}.yml`, data: 'x', method: 'store' as const }))), '', /5001 entries; the limit is 5000/],
      ['1.1 MB rule', writeZip([{ name: 'big.yml', data: '#'.repeat(1_100_000) }]), '', /big\.yml is 1100000 bytes/],
      ['bomb', writeZip([{ name: 'bomb.yml', data: Buffer.alloc(64 * 1024 * 1024, 0x20), declaredSize: 1000 }]), '', /bomb\.yml/],
    ];
    for (const [what, body, query, reason] of cases) {
      const res = await refused(body, zipHeaders, query);
      expect({ what, status: res.status }).toEqual({ what, status: 400 });
      expect({ what, message: res.body.message }).toEqual({ what, message: expect.stringMatching(reason) });
      expect(res.body.validationResult).toEqual(expect.objectContaining({ valid: 0 }));
    }
  });

  it('takes archives larger than the 10 MB telemetry cap', async () => {
    const body = writeZip(Array.from({ length: 12 }, (_, i) => ({ name: `pad${i}.txt`, data: Buffer.alloc(1024 * 1024, i), method: 'store' as const })));
    expect(body.length).toBeGreaterThan(12 * 1024 * 1024);
    const res = await refused(body, zipHeaders, '?dry_run=true');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The archive holds no .yml or .yaml rule file');
  });

  it('reports each invalid rule precisely: alias bomb, backreference, unsupported logsource', async () => {
    const aliasBomb = ['title: bomb', 'a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghij'.split('').map((c, i) => `${c}: &${c} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');
    const backref = rule(5).replace('query: x5.test', "query|re: '(a+)+\\1'");
    const cisco = rule(6).replace('category: dns', 'product: cisco\n  service: aaa');
    const res = await refused(writeZip([{ name: 'ok.yml', data: rule(4) }, { name: 'alias.yml', data: aliasBomb }, { name: 'backref.yml', data: backref }, { name: 'cisco.yml', data: cisco }]), zipHeaders, '?dry_run=true');
    expect(res.status).toBe(400);
    expect(res.body.validationResult).toMatchObject({ valid: 1, invalid: 3 });
    const byFile = Object.fromEntries(res.body.validationResult.errors.map((e: any) => [e.fileName, e.error]));
    expect(byFile['alias.yml']).toMatch(/alias/);
    expect(byFile['backref.yml']).toMatch(/regular expression|re /i);
    expect(byFile['cisco.yml']).toMatch(/unsupported logsource/);
    expect(res.body.message).toMatch(/dry run: nothing was stored/);
  });

  it('still serves after the refusals', async () => {
    expect((await api(vigil, 'GET', '/readyz', { key: null })).status).toBe(200);
    expect((await api(vigil, 'GET', '/v1/detections')).body.rules.map((r: any) => r.id)).toEqual([IDS.ursnif]);
    const ok = await api(vigil, 'POST', '/v1/detections', { body: writeZip([{ name: 'a.yml', data: rule(7) }]), headers: zipHeaders });
    expect(ok.body).toEqual({ accepted: 1 });
  });
});
