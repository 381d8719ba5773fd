// Jest globalTeardown of the `integration` project: stops the servers global-setup.cjs started (never external ones).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const tools = path.join(__dirname, '..');

module.exports = async function globalTeardown() {
  for (const container of globalThis.__vigilTestContainers ?? []) {
    await container.stop().catch((error) => process.stderr.write(`[integration] stopping a container: ${error.message}\n`));
  }
  const stops = [
    ['kafka/stop.sh', process.env.VIGIL_TEST_KAFKA_STATE_DIR],
    ['redis/stop.sh', process.env.VIGIL_TEST_REDIS_STATE_DIR],
  ];
  for (const [script, stateDir] of stops) {
    if (!stateDir) continue;
    try {
      execFileSync(path.join(tools, script), [stateDir], { stdio: 'inherit', timeout: 60_000 });
    } catch (error) {
      process.stderr.write(`[integration] ${script} ${stateDir}: ${error.message}\n`);
    }
  }
};
