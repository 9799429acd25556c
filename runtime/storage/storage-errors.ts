/** A write would duplicate a value in a `unique` column. HTTP: 409. */
export class UniqueViolationError extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
  ) {
    super(`${table}.${column} must be unique`)
    this.name = 'UniqueViolationError'
  }
}

/** A foreign key names a row that does not exist. HTTP: 400 on that field. */
export class MissingReferenceError extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly referencedTable: string,
  ) {
    super(`${table}.${column} references a missing ${referencedTable} row`)
    this.name = 'MissingReferenceError'
  }
}

/** DELETE of a row that `restrict` references still point at. HTTP: 409. */
export class RowReferencedError extends Error {
  constructor(
    readonly table: string,
    readonly referencingResource: string,
    readonly count: number,
  ) {
    super(`${table} row is still referenced by ${count} ${referencingResource}`)
    this.name = 'RowReferencedError'
  }
}

/** Existing tables disagree with the manifest; the server must not start. */
export class SchemaMismatchError extends Error {
  constructor(readonly differences: readonly string[]) {
    super(
      `The database does not match the manifest; refusing to start (nothing was changed):\n` +
        differences.map((difference) => `  - ${difference}`).join('\n') +
        `\nMigrate the database by hand, or point --db at a new database.`,
    )
    this.name = 'SchemaMismatchError'
  }
}

/** A --db / DATABASE_URL that names no supported database. */
export class StorageUrlError extends Error {
  override name = 'StorageUrlError'
}
