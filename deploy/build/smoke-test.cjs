#!/usr/bin/env node
// Proves the build: runs `npm run build` (skip with --no-build), then starts every built service
// (`node dist/apps/<app>/main.js`) on a free port with its own temporary data directory, waits for /readyz,
// sends one DNS event through the built all-in-one, runs the built CLI's `explain dns` (which reads the
// detection data files from dist/), and stops each process. Exit code 0 only if every step passed.
// Embedded mode unless KAFKA_BROKERS / CLICKHOUSE_URL / REDIS_URL are set in the environment.
// Not part of `npm test`: the build alone takes about a minute on two cores.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['account', 'rules', 'ingest-gateway', 'scoring-engine', 'findings-api', 'all-in-one'];
const READY_TIMEOUT_MS = 90_000;
const BOOTSTRAP_KEY = 'smoke-test-key-0123456789abcdef';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const stripAnsi = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

function build() {
  const started = Date.now();
  const run = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  if (run.status !== 0) throw new Error(`npm run build exited with ${run.status}`);
  return Date.now() - started;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a built service, resolves once /readyz answers 200. */
async function startService(app, dataDir) {
  const main = path.join(ROOT, 'dist', 'apps', app, 'main.js');
  if (!fs.existsSync(main)) throw new Error(`${path.relative(ROOT, main)} does not exist`);
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    cwd: os.tmpdir(), // the built code must not depend on the working directory
    env: { ...process.env, VIGIL_PORT: String(port), VIGIL_HOST: '127.0.0.1', VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_KEY: BOOTSTRAP_KEY, VIGIL_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const started = Date.now();
  let exit;
  exited.then((value) => (exit = value));
  while (Date.now() - started < READY_TIMEOUT_MS && !exit) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return { child, port, exited, readyMs: Date.now() - started };
    await sleep(200);
  }
  child.kill('SIGKILL');
  await exited;
  throw new Error(`${app} did not become ready (${exit ? `exited ${exit.code ?? exit.signal}` : 'timeout'}):\n${stripAnsi(output).slice(-2000)}`);
}

async function stopService(service) {
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 10_000);
  await service.exited;
  clearTimeout(timer);
}

async function postDnsEvent(port) {
  const response = await fetch(`http://127.0.0.1:${port}/v1/events/dns`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${BOOTSTRAP_KEY}:`).toString('base64')}`, 'content-type': 'application/x-ndjson' },
    body: '{"srcIP":"10.0.0.5","query":"example.com","qtype":"A"}\n',
  });
  const body = await response.json();
  if (response.status !== 200 || body.accepted !== 1) throw new Error(`POST /v1/events/dns answered ${response.status} ${JSON.stringify(body)}`);
}

function explainWithBuiltCli(dataDir) {
  const main = path.join(ROOT, 'dist', 'apps', 'cli', 'main.js');
  const run = spawnSync(process.execPath, [main, 'explain', 'dns', '--json', 'example.com'], {
    cwd: os.tmpdir(),
    env: { ...process.env, VIGIL_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`built CLI explain dns exited ${run.status}: ${run.stderr.slice(-1500)}`);
  JSON.parse(run.stdout);
}

async function main() {
  const results = [];
  const check = async (name, step) => {
    const started = Date.now();
    try {
      const detail = await step();
      results.push({ name, ok: true, detail: detail ?? `${Date.now() - started} ms` });
    } catch (error) {
      results.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-smoke-'));
  try {
    if (!process.argv.includes('--no-build')) await check('npm run build', () => `${build()} ms`);
    for (const app of SERVICES) {
      await check(`node dist/apps/${app}/main.js → /readyz 200`, async () => {
        const service = await startService(app, path.join(tmp, app));
        try {
          if (app === 'all-in-one') await postDnsEvent(service.port);
        } finally {
          await stopService(service);
        }
        return `ready in ${service.readyMs} ms${app === 'all-in-one' ? ', POST /v1/events/dns accepted 1' : ''}`;
      });
    }
    await check('node dist/apps/cli/main.js explain dns (data files from dist/)', () => explainWithBuiltCli(path.join(tmp, 'cli')));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  for (const r of results) process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${r.detail}\n`);
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`smoke-test: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
