import { execFile, execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './service-process';

const run = promisify(execFile);
const TOOLS = path.join(REPO_ROOT, 'tools');
const SCRIPT_TIMEOUT_MS = 600_000;

/** A server started by one of the repo's scripts (tools/kafka, tools/redis), stopped by its stop.sh. */
export interface LocalServer {
  /** `KAFKA_BROKERS` or `REDIS_URL` value. */
  readonly address: string;
  readonly stateDir: string;
  stop(): Promise<void>;
  /** Synchronous stop for process exit hooks. */
  stopNow(): void;
}

export interface LocalKafka extends LocalServer {
  /** Stops the broker (SIGTERM) and starts it again on the same port and log directory. */
  restart(): Promise<void>;
}

function scriptValues(stdout: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) values[match[1]] = match[2];
  }
  return values;
}

async function runScript(script: string, args: string[] = []): Promise<Record<string, string>> {
  try {
    const { stdout } = await run(path.join(TOOLS, script), args, { timeout: SCRIPT_TIMEOUT_MS, maxBuffer: 1 << 20 });
    return scriptValues(stdout);
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`${script} ${args.join(' ')} failed: ${stderr.split('\n').slice(-10).join('\n') || (error as Error).message}`);
  }
}

function stopper(script: string, stateDir: string, extra: string[] = []): { stop(): Promise<void>; stopNow(): void } {
  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      await runScript(script, [stateDir, ...extra]);
    },
    stopNow() {
      if (stopped) return;
      stopped = true;
      try {
        execFileSync(path.join(TOOLS, script), [stateDir, ...extra], { stdio: 'ignore', timeout: 30_000 });
      } catch {
        /* best effort at exit */
      }
    },
  };
}

/** A single-node KRaft broker from tools/kafka/start.sh (Java 17 and the cached jars needed). */
export async function startLocalKafka(): Promise<LocalKafka> {
  const values = await runScript('kafka/start.sh');
  const address = values.KAFKA_BROKERS;
  const stateDir = values.KAFKA_STATE_DIR;
  if (!address || !stateDir) throw new Error(`kafka/start.sh printed no address: ${JSON.stringify(values)}`);
  return {
    address,
    stateDir,
    ...stopper('kafka/stop.sh', stateDir),
    restart: async () => void (await runScript('kafka/restart.sh', [stateDir])),
  };
}

/** A redis-server without persistence from tools/redis/start.sh. */
export async function startLocalRedis(): Promise<LocalServer> {
  const values = await runScript('redis/start.sh');
  const address = values.REDIS_URL;
  const stateDir = values.REDIS_STATE_DIR;
  if (!address || !stateDir) throw new Error(`redis/start.sh printed no address: ${JSON.stringify(values)}`);
  return { address, stateDir, ...stopper('redis/stop.sh', stateDir) };
}
