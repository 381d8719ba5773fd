import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedDir } from '@vigil/testing';
import { compileCorrelation } from './correlation/correlation-compiler';
import { compileFilter } from './compile/filter-compiler';
import { compileRule } from './compile/rule-compiler';
import { loadSigmaDocuments } from './load/yaml-loader';
import { RuleSet } from './match/rule-set';
import type { CompiledRule } from './types';

const root = sharedDir('sigma', 'rules-network');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')).rules as Record<string, { tier: string; logsource: Record<string, string> }>;

function outcome(file: string): { rule?: CompiledRule; error?: string } {
  const loaded = loadSigmaDocuments(fs.readFileSync(path.join(root, file), 'utf8'), file);
  if (loaded.errors.length) return { error: loaded.errors[0].error };
  const compiled = compileRule(loaded.documents[0]);
  return compiled.ok ? { rule: compiled.rule } : { error: compiled.error };
}

const DEVICE_OR_UNSUPPORTED_ZEEK = (ls: Record<string, string>) =>
  ['cisco', 'fortigate', 'huawei', 'juniper'].includes(ls.product) || (ls.product === 'zeek' && ['smb_files', 'dce_rpc', 'rdp', 'kerberos'].includes(ls.service));

describe('the SigmaHQ network rules', () => {
  const files = Object.keys(manifest);
  const results = new Map(files.map((f) => [f, outcome(f)]));

  it('accepts the 195 rules Vigil telemetry can feed', () => {
    const feedable = files.filter((f) => !f.startsWith('unsupported/') && !DEVICE_OR_UNSUPPORTED_ZEEK(manifest[f].logsource));
    expect(feedable).toHaveLength(195);
    const failed = feedable.filter((f) => !results.get(f)?.rule).map((f) => `${f}: ${results.get(f)?.error}`);
    expect(failed).toEqual([]);
  });

  it('rejects the 37 device-syslog and unsupported-Zeek rules naming what is supported', () => {
    const rejected = files.filter((f) => !f.startsWith('unsupported/') && DEVICE_OR_UNSUPPORTED_ZEEK(manifest[f].logsource));
    expect(rejected).toHaveLength(37);
    for (const f of rejected) {
      expect(results.get(f)?.error).toMatch(/^unsupported logsource \(product: \w+, service: \w+\): .*supported logsources are category dns/);
    }
  });

  it('rejects each of the 14 legacy rules with its reason', () => {
    const legacy = files.filter((f) => f.startsWith('unsupported/'));
    expect(legacy).toHaveLength(14);
    for (const f of legacy) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      const condition = /condition:\s*(.*)/.exec(text)?.[1] ?? '';
      const expected = /\||count\(/.test(condition) ? /legacy Sigma v1 aggregation in the condition/ : /v1 form YYYY\/MM\/DD is obsolete/;
      expect([f, results.get(f)?.error]).toEqual([f, expect.stringMatching(expected)]);
    }
  });

  it('compiles every accepted rule into one rule set', () => {
    const rules = [...results.values()].flatMap((r) => (r.rule ? [r.rule] : []));
    const set = RuleSet.compile(rules);
    expect(set.rules).toHaveLength(195);
    expect(set.match('dns', { ts: 't', query: 'abc.onion' }).map((r) => r.title)).toEqual(['DNS TOR Proxies', 'DNS Query Tor .Onion Address - Sysmon']);
  });
});

describe('the specification examples', () => {
  const dir = sharedDir('sigma', 'spec-examples');
  const load = (sub: string) =>
    fs.readdirSync(path.join(dir, sub)).map((f) => {
      const r = loadSigmaDocuments(fs.readFileSync(path.join(dir, sub, f), 'utf8'), f);
      expect(r.errors).toEqual([]);
      return r.documents[0];
    });

  it('correlations all compile', () => {
    const docs = load('correlation');
    expect(docs).toHaveLength(8);
    for (const d of docs) expect([d.fileName, compileCorrelation(d).ok]).toEqual([d.fileName, true]);
  });
  it('rules and filters load; those for network logsources compile, the Windows ones are refused as unsupported', () => {
    const rules = load('rules');
    const filters = load('filter');
    expect(compileRule(rules.find((d) => d.fileName === 'rule_ecs.yml')!).ok).toBe(true);
    expect(compileFilter(filters.find((d) => d.fileName === 'filter_ecs.yml')!).ok).toBe(true);
    const windowsRule = compileRule(rules.find((d) => d.fileName === 'rule_1.yml')!);
    expect(windowsRule.ok ? '' : windowsRule.error).toMatch(/^unsupported logsource \(product: windows, service: application\)/);
    const windowsFilter = compileFilter(filters.find((d) => d.fileName === 'filter_1.yml')!);
    expect(windowsFilter.ok ? '' : windowsFilter.error).toMatch(/unsupported logsource \(category: process_creation, product: windows\)/);
  });
});
