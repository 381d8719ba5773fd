/**
 * One Jest run over every lib and app. `unit` = fast tests of one lib; `e2e` = real HTTP against the all-in-one app;
 * `integration` = adapters against real Kafka and Redis (started by tools/integration/global-setup.cjs, or
 * KAFKA_BROKERS / REDIS_URL when set); `distributed` = the services as separate processes over a real Kafka and Redis
 * that each file starts itself (apps/e2e/src/distributed, harness in libs/testing/src/distributed).
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@vigil/(.*)$': '<rootDir>/libs/$1/src/index.ts' },
  moduleFileExtensions: ['ts', 'js', 'json'],
};
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/libs/**/*.integration.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/integration/jest.setup.ts'],
      globalSetup: '<rootDir>/tools/integration/global-setup.cjs',
      globalTeardown: '<rootDir>/tools/integration/global-teardown.cjs',
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/e2e/**/*.e2e.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/e2e/src/distributed/'],
      setupFilesAfterEnv: ['<rootDir>/apps/e2e/jest.setup.ts'],
    },
    {
      ...shared,
      displayName: 'distributed',
      testMatch: ['<rootDir>/apps/e2e/src/distributed/**/*.e2e.ts'],
      setupFilesAfterEnv: ['<rootDir>/apps/e2e/src/distributed/jest.setup.ts'],
    },
  ],
};
