import { createHash } from 'node:crypto'
import type { Row, TableDefinition } from '../contract/table-definition.js'

/**
 * The strong ETag (RFC 9110 §8.8.3) of a stored row: a SHA-256 of its
 * columns' values in the table's column order, as the storage decodes them,
 * which is alike on every dialect. So it depends only on the stored row: not
 * on the version or `include` a response shows it through, nor on which
 * server instance answers, nor on restarts. Any write changes `updated_at`,
 * and so the tag.
 */
export function entityTagOf(table: TableDefinition, row: Row): string {
  const values = table.columns.map((column) => row[column.name] ?? null)
  // 128 bits of the digest: collisions are out of reach, and the header stays short.
  return `"${createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 22)}"`
}
