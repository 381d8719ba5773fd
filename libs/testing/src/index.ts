export * from './ocsf';
export * from './prng';
export * from './popular-domains';
export * from './generators';
export * from './ndjson-body';
export * from './temp-dir';
export * from './openapi-validator';
export * from './vigil-process';
