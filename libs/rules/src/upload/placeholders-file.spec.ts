import { isPlaceholdersFile, parsePlaceholdersFile, PLACEHOLDER_LIMITS } from './placeholders-file';

const error = (text: string) => {
  const parsed = parsePlaceholdersFile(text);
  return parsed.ok ? undefined : parsed.error;
};

describe('placeholders file', () => {
  it('is reserved only at the archive root', () => {
    expect(isPlaceholdersFile('placeholders.yml')).toBe(true);
    expect(isPlaceholdersFile('placeholders.yaml')).toBe(true);
    expect(isPlaceholdersFile('rules/placeholders.yml')).toBe(false);
    expect(isPlaceholdersFile('Placeholders.yml')).toBe(false);
  });

  it('parses a map of names to lists of strings, dropping repeated values', () => {
    const parsed = parsePlaceholdersFile('admin_hosts: [jump1, jump2, jump1]\nc2.domains-v2:\n  - "*.bad.example"\n');
    expect(parsed).toEqual({ ok: true, placeholders: { admin_hosts: ['jump1', 'jump2'], 'c2.domains-v2': ['*.bad.example'] } });
  });

  it('treats an empty file as no placeholders', () => {
    expect(parsePlaceholdersFile('')).toEqual({ ok: true, placeholders: {} });
    expect(parsePlaceholdersFile('# nothing yet\n')).toEqual({ ok: true, placeholders: {} });
  });

  it('names what is wrong with a name or a value', () => {
    expect(error('"bad name": [x]\n')).toBe('placeholder name "bad name" is not allowed: use letters, digits, \'_\', \'.\' and \'-\'');
    expect(error('hosts: jump1\n')).toBe('placeholder \'hosts\': expected a list of strings, got string "jump1"');
    expect(error('hosts: []\n')).toBe("placeholder 'hosts': the list of values is empty");
    expect(error('ports: [a, 443]\n')).toBe('placeholder \'ports\': value 2 must be a string, got number 443 (quote it)');
    expect(error('hosts: [{a: 1}]\n')).toBe("placeholder 'hosts': value 1 must be a string, got a map (quote it)");
    expect(error('- a\n- b\n')).toBe('placeholders file must be a YAML map of placeholder name to a list of strings');
    expect(error(`${'n'.repeat(PLACEHOLDER_LIMITS.maxNameLength + 1)}: [x]\n`)).toMatch(/is longer than 64 characters/);
  });

  it('enforces the count and size limits', () => {
    const names = Array.from({ length: PLACEHOLDER_LIMITS.maxNames + 1 }, (_, i) => `p${i}: [x]`).join('\n');
    expect(error(names)).toBe(`placeholders file names ${PLACEHOLDER_LIMITS.maxNames + 1} placeholders; the limit is ${PLACEHOLDER_LIMITS.maxNames}`);
    const many = `hosts: [${Array.from({ length: PLACEHOLDER_LIMITS.maxValuesPerName + 1 }, (_, i) => `h${i}`).join(', ')}]`;
    expect(error(many)).toBe(`placeholder 'hosts' has ${PLACEHOLDER_LIMITS.maxValuesPerName + 1} values; the limit is ${PLACEHOLDER_LIMITS.maxValuesPerName}`);
    expect(error(`hosts: ['${'x'.repeat(PLACEHOLDER_LIMITS.maxValueLength + 1)}']`)).toBe("placeholder 'hosts': value 1 is longer than 1024 characters");
    const total = Array.from({ length: 11 }, (_, n) => `p${n}: [${Array.from({ length: 1000 }, (_, i) => `v${i}`).join(',')}]`).join('\n');
    expect(error(total)).toBe(`placeholders file holds more than ${PLACEHOLDER_LIMITS.maxValuesInAll} values in all`);
  });

  it('is as safe as a rule file: duplicate keys, alias bombs, deep nesting, syntax errors', () => {
    expect(error('hosts: [a]\nhosts: [b]\n')).toMatch(/^YAML error at line 2, column 1: Map keys must be unique/);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghij'.split('').map((c, i) => {
      const p = String.fromCharCode(97 + i);
      return `${c}: &${c} [*${p}, *${p}, *${p}, *${p}]`;
    })].join('\n');
    expect(error(bomb)).toMatch(/^YAML budget exceeded: the document expands to \d+ nodes once its aliases are expanded; the limit is 32000/);
    expect(error(`x: ${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toBe('YAML nesting deeper than 4 levels');
    expect(error("hosts: ['[[[[[[', '{{{{{']\n")).toBeUndefined();
    expect(error('hosts: [unclosed\n')).toMatch(/^YAML error at line \d+, column \d+/);
  });
});
