import type { RelationDefinition, Row, TableDefinition } from './table-definition.js'

/**
 * How an API version's routes reach the storage: every route has one (the
 * version's translation), so handlers never ask whether there is one. A
 * version that names or shapes things otherwise (an older version; the
 * newest too, while the storage keeps what only older versions use) has a
 * generated `generated/<version>/translate/<resource>.ts` that exports
 * exactly these, as straight-line code; any other route gets
 * identityTranslation. The routes validate bodies and query parameters in
 * the version's own names (`view`), then translate at the edges.
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

/**
 * The translation of a version that is the storage's shape: storage rows are
 * its records, its include paths the storage's relations (whose `listPath`
 * says where each has-many is listed). Built once per route, at registration.
 */
export function identityTranslation(
  table: TableDefinition,
  tables: ReadonlyMap<string, TableDefinition>,
): VersionTranslation {
  return {
    view: table,
    bodyToStorage: (body) => body,
    rowToVersion: (row) => row,
    columnOf: (field) => field,
    fieldOf: (column) => column,
    includeOf: (path) => path,
    listPathOf: (path) => {
      let relation: RelationDefinition | undefined
      let current: TableDefinition | undefined = table
      for (const name of path.split('.')) {
        relation = current?.relations?.find((candidate) => candidate.name === name)
        current = relation && tables.get(relation.table)
      }
      return relation?.listPath ?? null
    },
  }
}
