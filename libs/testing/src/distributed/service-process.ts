import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS, serverRuntimeEnv } from '../server-runtime-env';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/** The apps that run as their own process in distributed mode. */
export type ServiceApp = 'account' | 'rules' | 'ingest-gateway' | 'scoring-engine' | 'findings-api';

export interface ServiceSpec {
  app: ServiceApp;
  /** Unique within a cluster, e.g. `ingest-gateway-1`; names the log file. */
  name: string;
  port: number;
  dataDir: string;
  logFile: string;
  env: Record<string, string>;
}

const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;

/**
 * One Vigil app as a real child process (`node -r ./tools/register.cjs apps/<app>/src/main.ts`) with its own
 * port and data directory; stdout and stderr go to a log file (appended across restarts). It can be killed
 * (any signal) and started again on the same port and data directory.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private starts = 0;

  constructor(readonly spec: ServiceSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.spec.port}`;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** Spawns the process and waits until /readyz answers 200 (fails with the log's tail if it exits or times out). */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.starts++;
    fs.mkdirSync(this.spec.dataDir, { recursive: true });
    const log = fs.openSync(this.spec.logFile, 'a');
    fs.writeSync(log, `\n===== ${new Date().toISOString()} start #${this.starts} of ${this.name} on port ${this.spec.port} =====\n`);
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '-r', './tools/register.cjs', `apps/${this.spec.app}/src/main.ts`], {
      cwd: REPO_ROOT,
      env: {
        ...inheritedEnv(),
        ...serverRuntimeEnv(),
        VIGIL_PORT: String(this.spec.port),
        VIGIL_HOST: '127.0.0.1',
        VIGIL_DATA_DIR: this.spec.dataDir,
        ...this.spec.env,
      },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await this.untilReady(child);
  }

  /** Sends `signal` and waits for the exit; after SIGTERM, SIGKILL follows a grace period. */
  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    child.kill(signal);
    if (signal !== 'SIGKILL') {
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
      return;
    }
    await this.exited;
  }

  /** Synchronous last resort (process exit hooks): SIGKILL without waiting. */
  killNow(): void {
    if (this.running) this.child?.kill('SIGKILL');
  }

  /** The last `lines` lines of the log file. */
  logTail(lines = 40): string {
    try {
      const text = fs.readFileSync(this.spec.logFile, 'utf8');
      return text.split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  private async untilReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.name} exited (${child.exitCode ?? child.signalCode}) during start-up:\n${this.logTail()}`);
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${this.name} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${this.logTail()}`);
      }
      if ((await readyzStatus(this.baseUrl)) === 200) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The test runner's environment minus the variables that would switch a service's mode behind our back. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('VIGIL_') || name === 'KAFKA_BROKERS' || name === 'REDIS_URL' || name === 'CLICKHOUSE_URL') delete env[name];
  }
  return env;
}

async function readyzStatus(baseUrl: string): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}
