import type { Row, TableDefinition } from './table-definition.js'

/**
 * How an API version's routes reach the storage when the version names or
 * shapes things otherwise (an older version; the newest too, while the
 * storage keeps what only older versions use): a
 * generated `generated/<version>/translate/<resource>.ts` exports exactly
 * these, as straight-line code. The routes validate bodies and query
 * parameters in the version's own names (`view`), then translate at the edges.
 */
export interface VersionTranslation {
  /** The resource as the version names and types its fields: query parameters and problem details use it. */
  readonly view: TableDefinition
  /** A validated body in storage columns; `creating` also fills columns the version lacks with their older value. */
  bodyToStorage(body: Row, creating: boolean): Row
  /** A stored row (with any embedded includes) as the version shows it. */
  rowToVersion(row: Row): Row
  /** The storage column of one of the version's field names. */
  columnOf(field: string): string
  /** The version's name for a storage column (the column's own name when the version does not have it). */
  fieldOf(column: string): string
  /** The storage's include path of one of the version's include paths. */
  includeOf(path: string): string
  /** The version's collection of what a has-many include path embeds for one record (`{id}`), for `meta.truncated`. */
  listPathOf(path: string): string | null
}

/** A version that is the storage's shape: storage rows are its records. */
export function identityTranslation(table: TableDefinition): VersionTranslation {
  return {
    view: table,
    bodyToStorage: (body) => body,
    rowToVersion: (row) => row,
    columnOf: (field) => field,
    fieldOf: (column) => column,
    includeOf: (path) => path,
    // Unused: without a translation, includes name the storage's relations, list paths included.
    listPathOf: () => null,
  }
}
