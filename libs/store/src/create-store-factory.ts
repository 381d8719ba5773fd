import { ChdbStoreFactory } from './chdb-store-factory';
import { StoreConfigError } from './errors';
import { HttpStoreFactory } from './http-store-factory';
import type { StoreFactory } from './store';

export type StoreConfig =
  | { kind: 'chdb'; path: string }
  | { kind: 'clickhouse'; url: string; username?: string; password?: string };

/** Embedded chdb for `{ kind: 'chdb' }`, a ClickHouse server over HTTP for `{ kind: 'clickhouse' }`. */
export function createStoreFactory(config: StoreConfig): StoreFactory {
  switch (config?.kind) {
    case 'chdb':
      return new ChdbStoreFactory(config.path);
    case 'clickhouse':
      return new HttpStoreFactory({ url: config.url, username: config.username, password: config.password });
    default:
      throw new StoreConfigError(`unknown store kind ${JSON.stringify((config as { kind?: unknown })?.kind)}`);
  }
}
