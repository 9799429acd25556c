import type { ColumnValue } from '../../runtime/contract/table-definition.js'

/** A `--backfill resource.field=value`, resolved to its column and parsed by the column's type. */
export interface Backfill {
  readonly table: string
  readonly column: string
  readonly value: ColumnValue
  /** As given: `posts.summary=hello`. */
  readonly option: string
}
