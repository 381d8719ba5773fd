import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS, serverRuntimeEnv } from './server-runtime-env';

const REPO = path.resolve(__dirname, '../../..');

describe('serverRuntimeEnv', () => {
  it('is what npm start and the container image set, so tests and benchmarks run the server as deployed', () => {
    const previous = process.env.MALLOC_ARENA_MAX;
    delete process.env.MALLOC_ARENA_MAX;
    try {
      const arenas = serverRuntimeEnv().MALLOC_ARENA_MAX;
      const start = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
      expect(start).toContain(`MALLOC_ARENA_MAX=\${MALLOC_ARENA_MAX:-${arenas}} node ${SERVER_NODE_FLAGS.join(' ')} -r `);
      const dockerfile = fs.readFileSync(path.join(REPO, 'deploy/Dockerfile'), 'utf8');
      expect(dockerfile).toMatch(new RegExp(`^ENV .*\\bMALLOC_ARENA_MAX=${arenas}\\b`, 'm'));
      expect(dockerfile).toContain(`CMD ["node", ${SERVER_NODE_FLAGS.map((flag) => JSON.stringify(flag)).join(', ')}, "dist/app/main.js"]`);
      process.env.MALLOC_ARENA_MAX = '4';
      expect(serverRuntimeEnv().MALLOC_ARENA_MAX).toBe('4');
    } finally {
      if (previous === undefined) delete process.env.MALLOC_ARENA_MAX;
      else process.env.MALLOC_ARENA_MAX = previous;
    }
  });
});
