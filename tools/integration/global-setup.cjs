// Jest globalSetup of the `integration` project: provides a real Kafka broker and a real Redis.
// KAFKA_BROKERS / REDIS_URL, when set, are used as they are; otherwise, when a Docker engine is reachable,
// testcontainers runs them (tools/integration/containers.cjs), else tools/kafka/start.sh and
// tools/redis/start.sh start local servers (all stopped by global-teardown.cjs). The addresses reach the tests as
// VIGIL_TEST_KAFKA_BROKERS / VIGIL_TEST_REDIS_URL (not KAFKA_BROKERS / REDIS_URL, which would switch the
// e2e project's embedded servers to distributed mode). A server that cannot start does not abort the whole
// run: its error goes to VIGIL_TEST_*_ERROR and every test that needs it fails with that message.
const { execFile } = require('node:child_process');
const path = require('node:path');

const { dockerAvailable, startKafkaContainer, startRedisContainer } = require('./containers.cjs');

const tools = path.join(__dirname, '..');

function runScript(script) {
  return new Promise((resolve, reject) => {
    execFile(path.join(tools, script), { timeout: 600_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${script} failed: ${stderr.trim().split('\n').slice(-8).join('\n') || error.message}`));
      const values = {};
      for (const line of stdout.split('\n')) {
        const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
        if (match) values[match[1]] = match[2];
      }
      resolve(values);
    });
  });
}

/** Containers started here, stopped by global-teardown.cjs (same process). */
globalThis.__vigilTestContainers = globalThis.__vigilTestContainers ?? [];

async function provide(name, external, script, addressVar, stateVar, startContainer) {
  if (external) {
    process.env[`VIGIL_TEST_${name}`] = external;
    return;
  }
  if (dockerAvailable()) {
    try {
      const { address, container } = await startContainer();
      globalThis.__vigilTestContainers.push(container);
      process.env[`VIGIL_TEST_${name}`] = address;
      return;
    } catch (error) {
      process.stderr.write(`[integration] ${name} container failed (${error.message}); using the local server script\n`);
    }
  }
  try {
    const values = await runScript(script);
    process.env[`VIGIL_TEST_${name}`] = values[addressVar];
    process.env[`VIGIL_TEST_${stateVar}`] = values[stateVar];
  } catch (error) {
    process.env[`VIGIL_TEST_${name}_ERROR`] = error.message;
  }
}

module.exports = async function globalSetup() {
  const started = Date.now();
  await Promise.all([
    provide('KAFKA_BROKERS', process.env.KAFKA_BROKERS?.trim(), 'kafka/start.sh', 'KAFKA_BROKERS', 'KAFKA_STATE_DIR', startKafkaContainer),
    provide('REDIS_URL', process.env.REDIS_URL?.trim(), 'redis/start.sh', 'REDIS_URL', 'REDIS_STATE_DIR', startRedisContainer),
  ]);
  process.stderr.write(
    `\n[integration] Kafka ${process.env.VIGIL_TEST_KAFKA_BROKERS ?? 'unavailable'}, ` +
      `Redis ${process.env.VIGIL_TEST_REDIS_URL ?? 'unavailable'} (${Date.now() - started} ms)\n`,
  );
};
