import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { api, startVigil, type VigilProcess } from '@vigil/testing';

/**
 * Property-based API fuzzing: Schemathesis (from PyPI, installed into .cache by tools/schemathesis/ensure-venv.sh,
 * which `npm test` and .ci/run call) generates valid and invalid requests for every operation of the served
 * /openapi.json and runs all of its checks on the answers: no 5xx, documented status codes, content types,
 * headers and bodies, invalid input refused, valid input accepted, 401 without credentials, 405 for undeclared
 * methods. Any failure fails this test; the summary is printed either way.
 */

const REPO = path.resolve(__dirname, '../../..');
const SCHEMATHESIS = path.join(REPO, '.cache/schemathesis-venv/bin/schemathesis');
const CONFIG = path.join(REPO, 'tools/schemathesis/schemathesis.toml');
/** A fixed seed keeps CI reproducible; set VIGIL_SCHEMATHESIS_SEED to explore other inputs. */
const SEED = process.env.VIGIL_SCHEMATHESIS_SEED ?? '20261125';
const MAX_EXAMPLES = process.env.VIGIL_SCHEMATHESIS_EXAMPLES ?? '60';

interface RunResult {
  code: number | null;
  output: string;
}

function runSchemathesis(vigil: VigilProcess): Promise<RunResult> {
  const args = [
    '--config-file', CONFIG,
    'run', `${vigil.baseUrl}/openapi.json`,
    '--checks', 'all',
    '--auth', `${vigil.key}:`,
    '--max-examples', MAX_EXAMPLES,
    '--seed', SEED,
    '--workers', '1',
    '--request-timeout', '30',
    '--no-color',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(SCHEMATHESIS, args, {
      cwd: REPO,
      env: { ...process.env, PYTHONPATH: path.join(REPO, 'tools/schemathesis'), SCHEMATHESIS_HOOKS: 'vigil_hooks' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => reject(new Error(`cannot run ${SCHEMATHESIS} (run tools/schemathesis/ensure-venv.sh): ${error.message}`)));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** From the "SUMMARY" banner to the end: operations, phases, failure kinds, test-case counts. */
function summaryOf(output: string): string {
  const start = output.search(/=+ SUMMARY =+/);
  return start >= 0 ? output.slice(start) : output.slice(-4000);
}

describe('API fuzzing with Schemathesis (all checks)', () => {
  let vigil: VigilProcess;

  beforeAll(async () => {
    vigil = await startVigil({ env: { VIGIL_RATE_LIMIT: '1000000/60s' } });
  });

  afterAll(async () => {
    await vigil?.stop();
  });

  it('reports no failures and no errors for any operation of /openapi.json', async () => {
    const result = await runSchemathesis(vigil);
    const summary = summaryOf(result.output);
    process.stdout.write(`\n[schemathesis] seed ${SEED}, ${MAX_EXAMPLES} examples per operation\n${summary}\n`);
    if (result.code !== 0) process.stdout.write(`[schemathesis] full output:\n${result.output}\n`);
    expect(summary).toMatch(/Tested: \d+/);
    expect(summary).not.toMatch(/\b\d+ (failures?|errors?)\b/);
    expect(result.code).toBe(0);
  }, 20 * 60_000);

  it('still serves afterwards', async () => {
    expect((await api(vigil, 'GET', '/readyz', { key: null })).status).toBe(200);
    expect((await api(vigil, 'GET', '/v1/account/status')).status).toBe(200);
  });
});
