// Kafka and Redis in containers through testcontainers, used by global-setup.cjs when a Docker engine is
// reachable (DOCKER_HOST, or the default socket). Without one, the local scripts (Maven jars, redis-server) serve.
const fs = require('node:fs');
const net = require('node:net');

const KAFKA_IMAGE = 'apache/kafka:3.9.1';
const REDIS_IMAGE = 'redis:7.4';

function dockerAvailable() {
  if (process.env.VIGIL_TEST_NO_CONTAINERS === '1') return false;
  return Boolean(process.env.DOCKER_HOST) || fs.existsSync('/var/run/docker.sock');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Single-node KRaft broker. Kafka must advertise the address clients dial, so the host port is fixed up front. */
async function startKafkaContainer() {
  const { GenericContainer, Wait } = require('testcontainers');
  const port = await freePort();
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '3',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(120_000)
    .start();
  return { address: `127.0.0.1:${port}`, container };
}

async function startRedisContainer() {
  const { GenericContainer, Wait } = require('testcontainers');
  const container = await new GenericContainer(REDIS_IMAGE)
    .withExposedPorts(6379)
    .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
    .start();
  return { address: `redis://${container.getHost()}:${container.getMappedPort(6379)}`, container };
}

module.exports = { dockerAvailable, startKafkaContainer, startRedisContainer };
