import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, withTempDir } from './temp-dir';

describe('temp dirs', () => {
  it('creates distinct empty dirs and removes them with their content', () => {
    const a = makeTempDir('vigil-test-');
    const b = makeTempDir('vigil-test-');
    expect(a.path).not.toBe(b.path);
    expect(a.path).toMatch(/vigil-test-/);
    mkdirSync(join(a.path, 'nested'));
    writeFileSync(join(a.path, 'nested', 'file.txt'), 'x');
    a.cleanup();
    a.cleanup();
    b.cleanup();
    expect(existsSync(a.path)).toBe(false);
    expect(existsSync(b.path)).toBe(false);
  });

  it('removes the dir after the callback, also when it throws', async () => {
    let kept = '';
    await expect(
      withTempDir('vigil-test-', (path) => {
        kept = path;
        writeFileSync(join(path, 'f'), 'x');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(kept).not.toBe('');
    expect(existsSync(kept)).toBe(false);
    await expect(withTempDir('vigil-test-', async (path) => existsSync(path))).resolves.toBe(true);
  });

  it('refuses a prefix that would leave the temp dir', () => {
    expect(() => makeTempDir('../escape')).toThrow(/prefix/);
    expect(() => makeTempDir('')).toThrow(/prefix/);
  });
});
