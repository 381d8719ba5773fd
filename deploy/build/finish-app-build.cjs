#!/usr/bin/env node
// Second step of `nx build <app>` (after the @nx/js:tsc "compile" target wrote dist/apps/<app>):
// rewrites the `@vigil/*` path aliases to relative requires (tsc leaves them as written), refuses a build in
// which any alias survived, and adds dist/apps/<app>/main.js so the service starts with `node dist/apps/<app>/main.js`.
// The compiled tree keeps the repository layout (apps/…, libs/…) so code that finds its data through
// `__dirname` (libs/detection-engine/data, libs/sigma/schemas) finds the copies made by the compile target.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { replaceTscAliasPaths } = require('tsc-alias');

const ROOT = path.resolve(__dirname, '..', '..');

function fail(message) {
  process.stderr.write(`finish-app-build: ${message}\n`);
  process.exit(1);
}

function javascriptFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return javascriptFiles(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

async function main(app) {
  if (!app || !/^[a-z][a-z0-9-]*$/.test(app)) fail('usage: finish-app-build.cjs <app>');
  const configFile = path.join(ROOT, 'apps', app, 'tsconfig.app.json');
  const outDir = path.join(ROOT, 'dist', 'apps', app);
  const compiledMain = path.join(outDir, 'apps', app, 'src', 'main.js');
  if (!fs.existsSync(configFile)) fail(`no such app: apps/${app}/tsconfig.app.json`);
  if (!fs.existsSync(compiledMain)) fail(`${path.relative(ROOT, compiledMain)} is missing: run the compile target first`);

  await replaceTscAliasPaths({ configFile, outDir });

  const leftovers = javascriptFiles(outDir).filter((file) => /require\("@vigil\//.test(fs.readFileSync(file, 'utf8')));
  if (leftovers.length) fail(`unresolved @vigil/* imports in ${leftovers.map((f) => path.relative(ROOT, f)).join(', ')}`);

  fs.writeFileSync(path.join(outDir, 'main.js'), `'use strict';\nrequire('./apps/${app}/src/main.js');\n`);
  process.stdout.write(`built dist/apps/${app}/main.js\n`);
}

main(process.argv[2]).catch((error) => fail(error instanceof Error ? error.stack : String(error)));
