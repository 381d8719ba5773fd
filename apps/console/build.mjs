#!/usr/bin/env node
// Builds the console's static files: `node apps/console/build.mjs <outDir> [<sourceHash>]`. The Vigil server runs
// it on start-up when its build is missing or stale (libs/console/src/console-build.ts); the Docker build runs it
// once. The hash of the sources is written to <outDir>/build-info.json.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const [outDir, sourceHash = 'unknown'] = process.argv.slice(2);
if (!outDir) {
  process.stderr.write('usage: node apps/console/build.mjs <outDir> [<sourceHash>]\n');
  process.exit(2);
}
const target = path.resolve(outDir);
await build({ configFile: path.join(here, 'vite.config.mts'), logLevel: 'warn', build: { outDir: target, emptyOutDir: true } });
writeFileSync(path.join(target, 'build-info.json'), JSON.stringify({ sourceHash, builtAt: new Date().toISOString() }) + '\n');
