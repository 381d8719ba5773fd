// Runs the TypeScript sources directly: @swc/core transpiles each .ts file as Node loads it, with the compiler
// options of tsconfig.base.json (legacy decorators with metadata, ES2022, CommonJS) and its `paths`, which swc
// rewrites into relative imports. Every worker thread loads this hook too (threads inherit `-r`), so it stays
// small: @swc-node/register would load the whole TypeScript compiler (about 50 MB per thread) to read tsconfig.
const fs = require('node:fs');
const path = require('node:path');
const { addHook } = require('pirates');
const { transformSync } = require('@swc/core');

const root = path.join(__dirname, '..');
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    baseUrl: root,
    paths: compilerOptions.paths,
  },
  module: { type: 'commonjs' },
  // Stack traces map back to the .ts lines; the maps leave out the sources themselves, which every thread would
  // otherwise hold twice more (in the inline comment and in Node's parsed map), about 5 MB per scoring thread.
  sourceMaps: 'inline',
  inlineSourcesContent: false,
};

if (!require.extensions['.ts']) {
  addHook((code, filename) => transformSync(code, { ...options, filename }).code, { exts: ['.ts'], ignoreNodeModules: true });
  process.setSourceMapsEnabled(true);
}
