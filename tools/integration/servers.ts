/**
 * The real servers of the integration tests (see global-setup.cjs). Each accessor throws with the reason when
 * its server is unavailable, so the tests that need it fail instead of being skipped.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

function required(name: string): string {
  const value = process.env[`VIGIL_TEST_${name}`];
  if (value) return value;
  const reason = process.env[`VIGIL_TEST_${name}_ERROR`] ?? 'the integration global setup did not run';
  throw new Error(`${name} is unavailable: ${reason}`);
}

export function kafkaBrokers(): string[] {
  return required('KAFKA_BROKERS').split(',');
}

export function redisUrl(): string {
  return required('REDIS_URL');
}

export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
}

/** Starts a private redis-server (for tests that stop it), with tools/redis/start.sh. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const tools = path.join(__dirname, '..');
  const { stdout } = await run(path.join(tools, 'redis/start.sh'));
  const url = /^REDIS_URL=(.*)$/m.exec(stdout)?.[1];
  const stateDir = /^REDIS_STATE_DIR=(.*)$/m.exec(stdout)?.[1];
  if (!url || !stateDir) throw new Error(`redis/start.sh printed no address: ${stdout}`);
  let stopped = false;
  return {
    url,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await run(path.join(tools, 'redis/stop.sh'), [stateDir]);
    },
  };
}
