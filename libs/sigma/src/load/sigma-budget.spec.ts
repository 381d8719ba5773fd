import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'yaml';
import { sharedDir } from '@vigil/testing';
import { expandedSize } from './expanded-size';
import { SIGMA_BUDGET } from './sigma-budget';
import { loadSigmaDocuments } from './yaml-loader';
import { scanYamlText } from './yaml-scan';

const header = 'title: amplified\nid: 00000000-0000-4000-8000-0000000000aa\nlogsource:\n  category: dns\ndetection:\n';

/** The reported attack: one anchored flow list of `items` one-letter values, aliased by 98 more selections. */
function amplified(items: number, aliases = 98): string {
  const list = `[${Array.from({ length: items }, () => 'a').join(',')}]`;
  const selections = Array.from({ length: aliases }, (_, i) => `  sel${i + 1}:\n    query|contains: *big\n`).join('');
  return `${header}  sel0:\n    query|contains: &big ${list}\n${selections}  condition: 1 of sel*\n`;
}

const errorOf = (text: string) => loadSigmaDocuments(text, 'x.yml').errors[0]?.error;

describe('SIGMA_BUDGET.yaml: what a YAML file may cost, checked before the cost is paid', () => {
  afterEach(() => jest.restoreAllMocks());

  it('refuses a 0.9 MB file of 450,000 aliased items without ever running the YAML parser', () => {
    const text = amplified(450_000);
    expect(text.length).toBeGreaterThan(900_000);
    const parse = jest.spyOn(yaml, 'parseAllDocuments');
    expect(errorOf(text)).toBe(
      'YAML budget exceeded: the file has more than 16000 structural tokens (list items, keys, separators); the limit is 16000 per file (SIGMA_BUDGET.yaml.maxStructuralTokens)',
    );
    expect(parse).not.toHaveBeenCalled();
  });

  it('refuses a small anchor aliased into a document larger than its expanded-node budget, before converting it', () => {
    const text = amplified(5_000);
    expect(scanYamlText(text).tokens).toBeLessThan(SIGMA_BUDGET.yaml.maxStructuralTokens);
    const toJS = jest.spyOn(yaml.Document.prototype, 'toJS');
    expect(errorOf(text)).toBe(
      'YAML budget exceeded: the document expands to 495409 nodes once its aliases are expanded; the limit is 32000 per document (SIGMA_BUDGET.yaml.maxExpandedNodes)',
    );
    expect(toJS).not.toHaveBeenCalled();
  });

  it('counts the bytes aliases repeat, and the aliases themselves', () => {
    const long = 'x'.repeat(30_000);
    const bytes = `${header}  sel0:\n    query: &s ${long}\n${Array.from({ length: 80 }, (_, i) => `  sel${i + 1}:\n    query: *s\n`).join('')}  condition: 1 of sel*\n`;
    expect(errorOf(bytes)).toMatch(/^YAML budget exceeded: the document expands to 24\d{5} bytes of values once its aliases are expanded; the limit is 2097152 per document \(SIGMA_BUDGET\.yaml\.maxExpandedScalarBytes\)$/);
    const many = `${header}  sel0:\n    query: &s x\n  sel1:\n    query: [${Array.from({ length: 101 }, () => '*s').join(', ')}]\n  condition: 1 of sel*\n`;
    expect(errorOf(many)).toBe('YAML budget exceeded: too many YAML aliases (101); the limit is 100 alias references per document (SIGMA_BUDGET.yaml.maxAliases)');
  });

  it('refuses an alias inside the node it names', () => {
    expect(errorOf(`${header}  sel: &loop\n    query: [*loop]\n  condition: sel\n`)).toBe('YAML cannot be converted: YAML alias *loop refers to a node that contains it');
  });

  it('accepts a rule just within the budgets: an anchor aliased into 9,900 values', () => {
    const r = loadSigmaDocuments(amplified(100), 'ok.yml');
    expect(r.errors).toEqual([]);
    const detection = r.documents[0].data.detection as Record<string, { 'query|contains': string[] }>;
    expect(detection.sel98['query|contains']).toHaveLength(100);
  });

  it('leaves a wide margin over every rule of the SigmaHQ network corpus', () => {
    const root = sharedDir('sigma', 'rules-network');
    const files = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')).rules as Record<string, unknown>);
    let tokens = 0;
    let nodes = 0;
    let bytes = 0;
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      tokens = Math.max(tokens, scanYamlText(text).tokens);
      for (const doc of yaml.parseAllDocuments(text) as yaml.Document[]) {
        const size = expandedSize(doc);
        nodes = Math.max(nodes, size.nodes);
        bytes = Math.max(bytes, size.scalarBytes);
      }
    }
    expect(files.length).toBeGreaterThan(200);
    // The README and SIGMA_BUDGET quote these figures (largest: net_connection_win_domain_crypto_mining_pools.yml).
    expect({ tokens, nodes, bytes }).toEqual({ tokens: 339, nodes: 358, bytes: expect.any(Number) });
    expect(tokens * 30).toBeLessThan(SIGMA_BUDGET.yaml.maxStructuralTokens);
    expect(nodes * 30).toBeLessThan(SIGMA_BUDGET.yaml.maxExpandedNodes);
    expect(bytes * 30).toBeLessThan(SIGMA_BUDGET.yaml.maxExpandedScalarBytes);
  });
});

describe('scanYamlText', () => {
  it('counts flow separators and openers, sequence entries, keys and aliases; not what is quoted or commented', () => {
    expect(scanYamlText('a: [x, y, z]\n').tokens).toBe(4); // key, opener, two commas
    expect(scanYamlText('list:\n  - x\n  - y\n').tokens).toBe(3);
    expect(scanYamlText("a: 'x, y: z - w'\nb: \"q,\\\" ,r\" # , , , : -\n").tokens).toBe(2);
    expect(scanYamlText('a: *x\nb: [*x, *y]\n').tokens).toBe(7);
    expect(scanYamlText('url: http://x/a-b,c\n').tokens).toBe(1);
  });

  it('measures flow nesting, and stops counting once past the limit it is given', () => {
    expect(scanYamlText('a: [[x], {b: [y]}]').flowDepth).toBe(3);
    expect(scanYamlText('[a, a, a, a, a, a, a, a]', 3).tokens).toBe(4);
  });
});

describe('expandedSize', () => {
  const size = (text: string) => expandedSize(yaml.parseDocument(text));

  it('counts every alias as a copy of what it names', () => {
    expect(size('a: &a [x, y]\nb: [*a, *a]\n')).toEqual({ nodes: 1 + 2 + 3 + 1 + 6, scalarBytes: 1 + 2 + 1 + 4, aliases: 2 });
  });

  it('stays linear in the tree when aliases multiply exponentially (memoised per anchor)', () => {
    const lines = ['l0: &l0 [x, x]'];
    for (let i = 1; i <= 60; i++) lines.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    const result = size(lines.join('\n'));
    expect(result.nodes).toBeGreaterThan(2 ** 60);
    expect(result.aliases).toBe(120);
  });

  it('follows the last anchor of a name defined before the alias', () => {
    expect(size('a: &n [x]\nb: &n [x, x, x]\nc: *n\n').nodes).toBe(1 + (1 + 2) + (1 + 4) + (1 + 4));
  });
});
