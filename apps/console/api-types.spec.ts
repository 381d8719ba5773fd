import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

describe('console API types', () => {
  it('are generated from the current OpenAPI document (else run node apps/console/generate-api-types.cjs)', () => {
    expect(() => execFileSync(process.execPath, [path.join(__dirname, 'generate-api-types.cjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('type-check with the console tsconfig (React, DOM)', () => {
    const tsc = require.resolve('typescript/bin/tsc');
    expect(() => execFileSync(process.execPath, [tsc, '-p', path.join(__dirname, 'tsconfig.json')], { stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
