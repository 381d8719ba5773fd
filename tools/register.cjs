// Runs TypeScript sources directly (swc transpiles, tsconfig paths resolve @vigil/* libs).
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || require('path').join(__dirname, '..', 'tsconfig.json');
require('@swc-node/register');
