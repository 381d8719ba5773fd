import { StoreConfigError } from './errors';

const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Database names end up inside DDL and `${database}.<table>` references, where query parameters cannot reach,
 * so only plain identifiers are accepted.
 */
export function assertDatabaseName(database: unknown): asserts database is string {
  if (typeof database !== 'string' || !DATABASE_NAME.test(database)) {
    throw new StoreConfigError(
      `invalid database name ${JSON.stringify(database)}: use 1-64 letters, digits or "_", not starting with a digit`,
    );
  }
}
