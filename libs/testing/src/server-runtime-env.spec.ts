import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_MALLOC_DEFAULTS, SERVER_NODE_FLAGS, serverRuntimeEnv } from './server-runtime-env';

const REPO = path.resolve(__dirname, '../../..');
const NAMES = Object.keys(SERVER_MALLOC_DEFAULTS) as (keyof typeof SERVER_MALLOC_DEFAULTS)[];

describe('serverRuntimeEnv', () => {
  const previous = new Map(NAMES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('is what npm start and the container image set, so tests and benchmarks run the server as deployed', () => {
    for (const name of NAMES) delete process.env[name];
    const env = serverRuntimeEnv();
    const start = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    const assignments = NAMES.map((name) => `${name}=\${${name}:-${env[name]}}`).join(' ');
    expect(start).toContain(`${assignments} node ${SERVER_NODE_FLAGS.join(' ')} -r `);
    const dockerfile = fs.readFileSync(path.join(REPO, 'deploy/Dockerfile'), 'utf8');
    for (const name of NAMES) expect(dockerfile).toMatch(new RegExp(`^ENV .*\\b${name}=${env[name]}(\\s|$)`, 'm'));
    expect(dockerfile).toContain(`CMD ["node", ${SERVER_NODE_FLAGS.map((flag) => JSON.stringify(flag)).join(', ')}, "dist/app/main.js"]`);
  });

  it('leaves a value the operator set', () => {
    process.env.MALLOC_ARENA_MAX = '4';
    process.env.MALLOC_MMAP_THRESHOLD_ = '65536';
    expect(serverRuntimeEnv()).toEqual({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536' });
  });
});
