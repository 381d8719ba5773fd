import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileRule } from './compile/rule-compiler';
import { loadSigmaDocuments } from './load/yaml-loader';
import type { CompiledRule } from './types';

/**
 * The rules of a SigmaHQ subset laid out like `../shared/sigma/rules-network` (a `manifest.json` naming the rule
 * files) that compile, in manifest order: the corpus of the equivalence tests and the benchmark.
 */
export function compileCorpusRules(root: string): CompiledRule[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')).rules as Record<string, unknown>;
  return Object.keys(manifest).flatMap((file) => {
    const loaded = loadSigmaDocuments(fs.readFileSync(path.join(root, file), 'utf8'), file);
    const compiled = loaded.documents[0] && compileRule(loaded.documents[0]);
    return compiled && compiled.ok ? [compiled.rule] : [];
  });
}
