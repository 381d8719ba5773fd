import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS, serverRuntimeEnv } from './server-runtime-env';

const REPO = path.resolve(__dirname, '../../..');

export interface VigilProcess {
  baseUrl: string;
  dataDir: string;
  key: string;
  child: ChildProcess;
  output: () => string;
  /**
   * Resolves once the server's output matches `pattern`. Log lines arrive over a pipe, so they can trail what a
   * client saw on its own socket: assert on them with this, not with `output()` at once.
   */
  outputMatching(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-e2e-'));
}

/** Starts `npm start`'s entry point as a real child process and waits until /readyz answers 200. */
export interface StartVigilOptions {
  /**
   * Given: the caller's directory, kept after stop() (e.g. to start again on it). Omitted: a temporary directory
   * that stop() removes.
   */
  dataDir?: string;
  env?: Record<string, string>;
  key?: string;
  port?: number;
  /** Extra node flags for the server process (benchmarks: `--cpu-prof`, `--max-old-space-size=…`). */
  nodeArgs?: string[];
  /** Append the server's stdout and stderr to this file instead of keeping them in memory (long runs with `--trace-gc`). */
  outputFile?: string;
}

export async function startVigil(options: StartVigilOptions = {}): Promise<VigilProcess> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? tempDataDir();
  const port = options.port ?? (await freePort());
  const key = options.key ?? 'vgl_e2eBootstrapKey000000000000000001';
  let output = '';
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(options.nodeArgs ?? []), '-r', './tools/register.cjs', 'apps/all-in-one/src/main.ts'], {
    cwd: REPO,
    env: { ...process.env, ...serverRuntimeEnv(), VIGIL_PORT: String(port), VIGIL_HOST: '127.0.0.1', VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_KEY: key, VIGIL_LOG_LEVEL: 'warn', VIGIL_LOG_FORMAT: 'text', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = options.outputFile === undefined ? (chunk: Buffer) => (output += chunk.toString()) : appendTo(options.outputFile);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const scheme = options.env?.VIGIL_TLS_SELF_SIGNED === '1' ? 'https' : 'http';
  const baseUrl = `${scheme}://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vigil exited with ${child.exitCode} during start-up:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`vigil did not become ready in 60 s:\n${output}`);
    }
    if ((await readyzStatus(baseUrl)) === 200) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    dataDir,
    key,
    child,
    output: () => output,
    async outputMatching(pattern: RegExp, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (Date.now() > deadline) throw new Error(`the server's output did not match ${pattern} within ${timeoutMs} ms:\n${output.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** GET /readyz over HTTP or HTTPS (self-signed certificates accepted); 0 when nothing answers. */
function readyzStatus(baseUrl: string): Promise<number> {
  const client = baseUrl.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const request = client.get(`${baseUrl}/readyz`, { rejectUnauthorized: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('error', () => resolve(0));
    request.on('timeout', () => request.destroy());
  });
}

export function basicAuth(key: string, password = ''): string {
  return 'Basic ' + Buffer.from(`${key}:${password}`).toString('base64');
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch with the API key and a parsed body. */
export async function api<T = any>(vigil: { baseUrl: string; key: string }, method: string, url: string, init: { body?: Buffer | string; headers?: Record<string, string>; key?: string | null } = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  const key = init.key === undefined ? vigil.key : init.key;
  if (key !== null) headers.authorization = basicAuth(key);
  const res = await fetch(vigil.baseUrl + url, { method, headers, body: init.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* non-JSON bodies (NDJSON, metrics) stay as text */
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

/** Polls until `probe` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', './tools/register.cjs', 'apps/cli/src/main.ts', ...args], { cwd: REPO, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function appendTo(file: string): (chunk: Buffer) => void {
  const out = fs.createWriteStream(file, { flags: 'a' });
  return (chunk) => out.write(chunk);
}
