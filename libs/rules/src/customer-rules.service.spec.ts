import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { BUS, type Bus } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { decodeRuleSetRecord, encodeRuleStatusRecord, TOPICS, type WorkspaceRuleSet } from '@vigil/contracts';
import { PlatformModule } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import { CustomerRulesService } from './customer-rules.service';
import { CustomerRulesCoreModule } from './rules.module';
import { writeZip } from './testing/zip-writer';
import { ZipRejectedError } from './upload/zip-reader';

const dnsRule = (id: string, domain: string, level = 'high') =>
  `title: Query for ${domain}\nid: ${id}\nstatus: test\nlevel: ${level}\nlogsource:\n  category: dns\ndetection:\n  selection:\n    query|endswith: '.${domain}'\n  condition: selection\n`;
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const correlation = (id: string, ref: string) =>
  `title: Many queries\nid: ${id}\nstatus: test\ncorrelation:\n  type: event_count\n  rules:\n    - ${ref}\n  group-by:\n    - src_ip\n  timespan: 5m\n  condition:\n    gte: 10\n`;

describe('CustomerRulesService (real chdb and local bus)', () => {
  const temp = makeTempDir('vigil-rules-');
  let app: INestApplicationContext;
  let rules: CustomerRulesService;
  const announced = new Map<string, WorkspaceRuleSet>();

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path });
    app = await NestFactory.createApplicationContext(
      { module: class RulesSpecModule {}, imports: [PlatformModule.forRoot(config, { http: false }), CustomerRulesCoreModule] },
      { logger: false },
    );
    await app.init();
    rules = app.get(CustomerRulesService);
    await app.get<Bus>(BUS).subscribe({ topic: TOPICS.rules.name }, async (batch) => {
      for (const record of batch.records) announced.set(record.key!, decodeRuleSetRecord(record.value));
    });
  });

  afterAll(async () => {
    await app.close();
    temp.cleanup();
  });

  const announcedIds = async (workspace: string, expected: string[]) => {
    for (let i = 0; i < 100; i++) {
      const ids = announced.get(workspace)?.rules.map((r) => r.id).sort();
      if (JSON.stringify(ids) === JSON.stringify([...expected].sort())) return ids;
      await new Promise((r) => setTimeout(r, 20));
    }
    return announced.get(workspace)?.rules.map((r) => r.id).sort();
  };
  const listed = async (workspace: string) => (await rules.list(workspace)).map((r) => r.id).sort();

  it('merges: adds new rules, updates existing ones by id, and announces the whole set', async () => {
    const first = await rules.upload('ws-merge', writeZip([{ name: 'a.yml', data: dnsRule(ID(1), 'evil.test') }, { name: 'b.yml', data: dnsRule(ID(2), 'bad.test') }]), { mode: 'merge', dryRun: false });
    expect(first).toEqual({ valid: 2, invalid: 0, errors: [], ignored: [] });
    const second = await rules.upload('ws-merge', writeZip([{ name: 'b2.yaml', data: dnsRule(ID(2), 'worse.test', 'critical') }, { name: 'c.yml', data: dnsRule(ID(3), 'c.test') }]), { mode: 'merge', dryRun: false });
    expect(second.valid).toBe(2);
    expect(await listed('ws-merge')).toEqual([ID(1), ID(2), ID(3)]);
    const updated = (await rules.list('ws-merge')).find((r) => r.id === ID(2));
    expect(updated).toMatchObject({ title: 'Query for worse.test', level: 'critical', fileName: 'b2.yaml', kind: 'rule', status: 'test' });
    expect(await announcedIds('ws-merge', [ID(1), ID(2), ID(3)])).toEqual([ID(1), ID(2), ID(3)]);
    expect(announced.get('ws-merge')!.rules.find((r) => r.id === ID(2))!.source).toContain('worse.test');
  });

  it('replaces: removes the rules the upload does not carry', async () => {
    await rules.upload('ws-replace', writeZip([{ name: 'a.yml', data: dnsRule(ID(11), 'a.test') }, { name: 'b.yml', data: dnsRule(ID(12), 'b.test') }]), { mode: 'merge', dryRun: false });
    const outcome = await rules.upload('ws-replace', writeZip([{ name: 'c.yml', data: dnsRule(ID(13), 'c.test') }]), { mode: 'replace', dryRun: false });
    expect(outcome.valid).toBe(1);
    expect(await listed('ws-replace')).toEqual([ID(13)]);
    expect(await announcedIds('ws-replace', [ID(13)])).toEqual([ID(13)]);
  });

  it('dry run validates and stores nothing', async () => {
    const outcome = await rules.upload('ws-dry', writeZip([{ name: 'a.yml', data: dnsRule(ID(21), 'a.test') }, { name: 'bad.yml', data: 'title: x\n' }]), { mode: 'replace', dryRun: true });
    expect(outcome.valid).toBe(1);
    expect(outcome.invalid).toBe(1);
    expect(outcome.errors[0].fileName).toBe('bad.yml');
    expect(await listed('ws-dry')).toEqual([]);
  });

  it('stores the valid rules of a mixed upload and reports each invalid one precisely', async () => {
    const zip = writeZip([
      { name: 'ok.yml', data: dnsRule(ID(31), 'ok.test') },
      { name: 'syntax.yml', data: 'title: [unclosed\n' },
      { name: 'logsource.yml', data: dnsRule(ID(32), 'x.test').replace('category: dns', 'product: cisco\n  service: aaa') },
      { name: 'dup.yml', data: dnsRule(ID(31), 'dup.test') },
      { name: 'corr.yml', data: correlation(ID(33), 'no-such-rule') },
      { name: 'notes.txt', data: 'ignored' },
    ]);
    const outcome = await rules.upload('ws-mixed', zip, { mode: 'merge', dryRun: false });
    expect(outcome.valid).toBe(1);
    expect(outcome.invalid).toBe(4);
    expect(outcome.ignored).toEqual(['notes.txt']);
    const byFile = Object.fromEntries(outcome.errors.map((e) => [e.fileName, e.error]));
    expect(byFile['syntax.yml']).toMatch(/line \d+, column \d+/);
    expect(byFile['logsource.yml']).toMatch(/unsupported logsource/);
    expect(byFile['dup.yml']).toBe(`rule id '${ID(31)}' is already used by ok.yml in this archive`);
    expect(byFile['corr.yml']).toMatch(/'no-such-rule' not found/);
    expect(await listed('ws-mixed')).toEqual([ID(31)]);
  });

  it('accepts a correlation over a rule already stored in the workspace, and keeps workspaces apart', async () => {
    const outcome = await rules.upload('ws-mixed', writeZip([{ name: 'corr.yml', data: correlation(ID(34), ID(31)) }]), { mode: 'merge', dryRun: false });
    expect(outcome).toMatchObject({ valid: 1, invalid: 0 });
    expect((await rules.list('ws-mixed')).find((r) => r.id === ID(34))?.kind).toBe('correlation');
    expect(await listed('ws-other')).toEqual([]);
  });

  describe('expand placeholders', () => {
    const expandRule = (id: string, placeholder = 'c2_domains') =>
      `title: Query for a configured C2 domain\nid: ${id}\nstatus: test\nlevel: high\nlogsource:\n  category: dns\ndetection:\n  selection:\n    query|expand: '%${placeholder}%'\n  condition: selection\n`;
    const file = (text: string) => ({ name: 'placeholders.yml', data: text });

    it('refuses a rule whose placeholder is not configured, naming it (also in a dry run)', async () => {
      for (const dryRun of [true, false]) {
        const outcome = await rules.upload('ws-ph-missing', writeZip([{ name: 'x.yml', data: expandRule(ID(41)) }]), { mode: 'merge', dryRun });
        expect(outcome).toMatchObject({ valid: 0, invalid: 1 });
        expect(outcome.errors[0]).toEqual({ fileName: 'x.yml', error: expect.stringContaining('placeholder %c2_domains% is not configured for this workspace') });
      }
      expect(await listed('ws-ph-missing')).toEqual([]);
    });

    it('stores the placeholders file with the rules and announces it with the rule set', async () => {
      const outcome = await rules.upload('ws-ph', writeZip([file('c2_domains: [evil.test, "*.bad.test"]\n'), { name: 'x.yml', data: expandRule(ID(42)) }]), { mode: 'merge', dryRun: false });
      expect(outcome).toEqual({ valid: 1, invalid: 0, errors: [], ignored: [], placeholdersFile: 'placeholders.yml' });
      expect(await rules.placeholdersOf('ws-ph')).toEqual({ c2_domains: ['evil.test', '*.bad.test'] });
      expect(await announcedIds('ws-ph', [ID(42)])).toEqual([ID(42)]);
      expect(announced.get('ws-ph')!.placeholders).toEqual({ c2_domains: ['evil.test', '*.bad.test'] });
    });

    it('merge without the file keeps the placeholders; a file that drops one a kept rule uses is refused', async () => {
      const more = await rules.upload('ws-ph', writeZip([{ name: 'y.yml', data: expandRule(ID(43)) }]), { mode: 'merge', dryRun: false });
      expect(more).toMatchObject({ valid: 1, invalid: 0 });
      const dropped = await rules.upload('ws-ph', writeZip([file('admins: [root]\n'), { name: 'z.yml', data: expandRule(ID(44), 'admins') }]), { mode: 'merge', dryRun: false });
      expect(dropped.invalid).toBe(2);
      expect(dropped.errors[0]).toEqual({ fileName: 'placeholders.yml', error: expect.stringMatching(new RegExp(`^placeholders not applied: stored rule '${ID(42)}' \\(x\.yml\\): .*%c2_domains% is not configured`)) });
      expect(dropped.errors[1]).toEqual({ fileName: 'z.yml', error: expect.stringContaining('placeholder %admins% is not configured for this workspace (configured: c2_domains)') });
      expect(await rules.placeholdersOf('ws-ph')).toEqual({ c2_domains: ['evil.test', '*.bad.test'] });
      expect(await listed('ws-ph')).toEqual([ID(42), ID(43)]);
    });

    it('replace without the file clears the placeholders', async () => {
      const outcome = await rules.upload('ws-ph', writeZip([{ name: 'plain.yml', data: dnsRule(ID(45), 'plain.test') }, { name: 'x.yml', data: expandRule(ID(46)) }]), { mode: 'replace', dryRun: false });
      expect(outcome).toMatchObject({ valid: 1, invalid: 1 });
      expect(outcome.errors[0].error).toContain('placeholder %c2_domains% is not configured');
      expect(await rules.placeholdersOf('ws-ph')).toEqual({});
      expect(await announcedIds('ws-ph', [ID(45)])).toEqual([ID(45)]);
      expect(announced.get('ws-ph')!.placeholders).toBeUndefined();
    });

    it('reports an invalid placeholders file and a second one, and dry run stores no placeholders', async () => {
      const outcome = await rules.upload('ws-ph-bad', writeZip([file('hosts: jump1\n'), { name: 'placeholders.yaml', data: 'hosts: [a]\n' }]), { mode: 'merge', dryRun: false });
      expect(outcome.errors).toEqual([
        { fileName: 'placeholders.yml', error: 'placeholder \'hosts\': expected a list of strings, got string "jump1"' },
        { fileName: 'placeholders.yaml', error: 'only one placeholders file per archive; placeholders.yml is used' },
      ]);
      const dry = await rules.upload('ws-ph-bad', writeZip([file('hosts: [a]\n')]), { mode: 'merge', dryRun: true });
      expect(dry).toMatchObject({ valid: 0, invalid: 0, placeholdersFile: 'placeholders.yml' });
      expect(await rules.placeholdersOf('ws-ph-bad')).toEqual({});
    });
  });

  it("lists each rule's state from the scoring engines' status topic: quarantined only for the version they judged", async () => {
    await rules.upload('ws-state', writeZip([{ name: 'a.yml', data: dnsRule(ID(51), 'a.test') }, { name: 'b.yml', data: dnsRule(ID(52), 'b.test') }]), { mode: 'merge', dryRun: false });
    const [a, b] = await rules.list('ws-state');
    expect([a.state, b.state]).toEqual(['active', 'active']);
    const bus = app.get<Bus>(BUS);
    const quarantined = [
      { id: ID(51), updatedAt: a.updatedAt, reason: 'rule budget exceeded: 10001 detection values' },
      { id: ID(52), updatedAt: '2000-01-01T00:00:00.000Z', reason: 'an older version' },
    ];
    await bus.publish(TOPICS.ruleStatus.name, [{ key: 'ws-state', value: encodeRuleStatusRecord({ v: 1, workspaceId: 'ws-state', version: 1, quarantined }) }]);
    let states: Array<{ id: string; state: string; reason?: string }> = [];
    for (let i = 0; i < 100 && states[0]?.state !== 'quarantined'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      states = (await rules.list('ws-state')).map(({ id, state, reason }) => ({ id, state, ...(reason ? { reason } : {}) }));
    }
    expect(states).toEqual([
      { id: ID(51), state: 'quarantined', reason: 'rule budget exceeded: 10001 detection values' },
      { id: ID(52), state: 'active' },
    ]);
  });

  it('refuses a corrupt archive as a whole', async () => {
    await expect(rules.upload('ws-merge', Buffer.from('PK\u0003\u0004broken'), { mode: 'replace', dryRun: false })).rejects.toBeInstanceOf(ZipRejectedError);
    expect(await listed('ws-merge')).toEqual([ID(1), ID(2), ID(3)]);
  });
});
