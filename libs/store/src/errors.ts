/** A database name, migration list or store configuration that cannot be used. */
export class StoreConfigError extends Error {
  override readonly name = 'StoreConfigError';
}

/** The recorded history of a database disagrees with the migrations in the code. */
export class MigrationConflictError extends Error {
  override readonly name = 'MigrationConflictError';
}

/** The embedded engine is already bound to another data directory in this process. */
export class ChdbPathConflictError extends Error {
  override readonly name = 'ChdbPathConflictError';
}
