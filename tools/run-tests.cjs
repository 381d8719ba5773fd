#!/usr/bin/env node
// `npm test`: type-checks the repository (whole suite only), runs Jest (all projects, or the arguments given),
// then prints the plain "N passed, N failed" line that CI reads, taken from Jest's JSON results (a failed type
// check counts as one failure).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// The e2e project fuzzes the API with Schemathesis from PyPI: install it first (once, into .cache).
const fuzzer = spawnSync('bash', [path.join(__dirname, 'schemathesis/ensure-venv.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
if (fuzzer.status !== 0) console.error('warning: Schemathesis could not be installed; the API fuzzing test will fail');

// The whole suite starts with the type check: Jest runs TypeScript through swc, which strips types unchecked.
const wholeSuite = process.argv.length <= 2;
const typecheck = wholeSuite ? spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(__dirname, '..', 'tsconfig.json'), '--noEmit'], { stdio: 'inherit' }) : undefined;
if (typecheck !== undefined) console.log(typecheck.status === 0 ? 'type check: no errors' : 'type check: FAILED (errors above)');

const results = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-jest-')), 'results.json');
const jest = require.resolve('jest/bin/jest');
const run = spawnSync(process.execPath, [jest, '--json', `--outputFile=${results}`, ...process.argv.slice(2)], { stdio: 'inherit' });

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const summary = JSON.parse(fs.readFileSync(results, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites || 0);
  skipped = summary.numPendingTests + summary.numTodoTests;
} catch {
  failed = 1;
}
if (typecheck !== undefined && typecheck.status !== 0) failed += 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
