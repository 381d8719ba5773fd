import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedDir } from '@vigil/testing';
import { UploadBudgetError, UploadValidator } from './upload-validator';
import type { ZipRuleFile } from './zip-reader';

const root = sharedDir('sigma', 'rules-network');
const corpus: ZipRuleFile[] = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')).rules as Record<string, unknown>).map((f) => ({
  fileName: f,
  text: fs.readFileSync(path.join(root, f), 'utf8'),
}));
const input = (ruleFiles: ZipRuleFile[]) => ({ ruleFiles, placeholderFiles: [], mode: 'merge' as const, existing: [], existingPlaceholders: {} });

describe('UploadValidator: validation in a worker thread under SIGMA_BUDGET.upload', () => {
  jest.setTimeout(120_000);

  it('validates the SigmaHQ network corpus in the worker', async () => {
    const validator = new UploadValidator();
    try {
      const result = await validator.evaluate(input(corpus));
      expect(result.candidates.length).toBeGreaterThan(150);
      expect(result.candidates.length + result.errors.length).toBeGreaterThanOrEqual(corpus.length);
      expect(result.errors.find((e) => e.fileName.includes('cisco'))?.error).toMatch(/unsupported logsource/);
    } finally {
      await validator.onModuleDestroy();
    }
  });

  it('stops a validation that overruns its time budget and names the budget and the file it was checking', async () => {
    const validator = new UploadValidator(undefined, { timeoutMs: 25 });
    try {
      const error = await validator.evaluate(input([...corpus, ...corpus])).catch((e: Error) => e);
      expect(error).toBeInstanceOf(UploadBudgetError);
      expect((error as Error).message).toMatch(/^Validating the archive overran its time budget of 25 ms \(SIGMA_BUDGET\.upload\.timeoutMs\) while checking \S+\.yml$/);
      expect(corpus.map((f) => f.fileName)).toContain((error as UploadBudgetError).fileName);
    } finally {
      await validator.onModuleDestroy();
    }
  });
});
