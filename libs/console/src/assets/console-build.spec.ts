import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureConsoleBuilt, hashSources, locateConsole, staleness, type ConsolePaths } from './console-build';

/** A stand-in for apps/console: its build.mjs writes index.html and build-info.json, and counts its runs. */
function fakeConsole(): ConsolePaths & { runs: () => number } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-console-build-'));
  const sources = path.join(root, 'apps', 'console');
  fs.mkdirSync(path.join(sources, 'src'), { recursive: true });
  fs.writeFileSync(path.join(sources, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(sources, 'src', 'main.tsx'), 'export {};');
  const counter = path.join(root, 'runs');
  fs.writeFileSync(
    path.join(sources, 'build.mjs'),
    `import fs from 'node:fs';
const [out, hash] = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(counter)}, 'x');
await new Promise((r) => setTimeout(r, 300));
fs.mkdirSync(out + '/assets', { recursive: true });
fs.writeFileSync(out + '/index.html', '<p>built</p>');
fs.writeFileSync(out + '/build-info.json', JSON.stringify({ sourceHash: hash, builtAt: new Date().toISOString() }));
`,
  );
  return { sources, out: path.join(root, 'dist', 'console'), runs: () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').length : 0) };
}

describe('console build', () => {
  it('finds the console sources of this checkout', () => {
    const paths = locateConsole();
    expect(paths.sources).toBe(path.resolve(__dirname, '../../../../apps/console'));
    expect(paths.out).toBe(path.resolve(__dirname, '../../../../dist/console'));
    expect(locateConsole(os.tmpdir(), '/opt/vigil')).toEqual({ out: '/opt/vigil/dist/console' });
  });

  it('hashes names and contents of the sources', () => {
    const fake = fakeConsole();
    const before = hashSources(fake.sources!);
    expect(hashSources(fake.sources!)).toBe(before);
    fs.writeFileSync(path.join(fake.sources!, 'src', 'main.tsx'), 'export const x = 1;');
    const edited = hashSources(fake.sources!);
    expect(edited).not.toBe(before);
    fs.renameSync(path.join(fake.sources!, 'src', 'main.tsx'), path.join(fake.sources!, 'src', 'other.tsx'));
    expect(hashSources(fake.sources!)).not.toBe(edited);
    const renamed = hashSources(fake.sources!);
    fs.mkdirSync(path.join(fake.sources!, 'node_modules'));
    fs.writeFileSync(path.join(fake.sources!, 'node_modules', 'ignored.js'), '');
    expect(hashSources(fake.sources!)).toBe(renamed);
  });

  it('builds when missing, not again when current, and again when a source changed; concurrent starts build once', async () => {
    const fake = fakeConsole();
    expect(staleness(fake)).toMatch(/not been built/);
    const log: string[] = [];
    await Promise.all([ensureConsoleBuilt(fake, (m) => log.push(m)), ensureConsoleBuilt(fake, (m) => log.push(m))]);
    expect(fake.runs()).toBe(1);
    expect(staleness(fake)).toBeUndefined();
    expect(fs.readFileSync(path.join(fake.out, 'index.html'), 'utf8')).toBe('<p>built</p>');
    expect(fs.existsSync(`${fake.out}.lock`)).toBe(false);

    await ensureConsoleBuilt(fake, (m) => log.push(m));
    expect(fake.runs()).toBe(1);

    fs.writeFileSync(path.join(fake.sources!, 'src', 'page.tsx'), 'export {};');
    expect(staleness(fake)).toMatch(/changed/);
    await ensureConsoleBuilt(fake, (m) => log.push(m));
    expect(fake.runs()).toBe(2);
    expect(log.filter((m) => m.startsWith('building'))).toHaveLength(2);
  });

  it('serves a build without sources as it is, and refuses to start without either', async () => {
    const fake = fakeConsole();
    await ensureConsoleBuilt(fake, () => undefined);
    expect(staleness({ out: fake.out })).toBeUndefined();
    const empty = { out: path.join(os.tmpdir(), 'vigil-no-console-here') };
    expect(staleness(empty)).toMatch(/no console build/);
    await expect(ensureConsoleBuilt(empty, () => undefined)).rejects.toThrow(/no console build/);
  });
});
