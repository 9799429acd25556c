import { createHash } from 'node:crypto'
import type { ColumnValue } from '../table-definition.js'

/**
 * Opaque keyset cursors: base64url of the position (the sort-key values of
 * the last row, then its id) together with the query shape it belongs to,
 * plus a checksum. A cursor replayed with another sort or other filters, or
 * edited, no longer matches and is rejected. It is an integrity check, not a
 * secret: a cursor grants nothing the query string does not.
 */
export function encodeCursor(shape: string, position: readonly ColumnValue[]): string {
  const payload = JSON.stringify([shape, position])
  return `${toBase64Url(payload)}.${checksum(payload)}`
}

/** The position, or null when the cursor is malformed, edited or made for another query shape. */
export function decodeCursor(cursor: string, shape: string, length: number): ColumnValue[] | null {
  const [body, sum, extra] = cursor.split('.')
  if (!body || !sum || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(body)) return null
  const payload = Buffer.from(body, 'base64url').toString('utf8')
  if (checksum(payload) !== sum) return null
  let decoded: unknown
  try {
    decoded = JSON.parse(payload)
  } catch {
    return null
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== shape) return null
  const position: unknown = decoded[1]
  if (!Array.isArray(position) || position.length !== length || !position.every(isColumnValue)) return null
  return position
}

function isColumnValue(value: unknown): value is ColumnValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}

function toBase64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url')
}

function checksum(payload: string): string {
  return createHash('sha256').update(`restmint-cursor\0${payload}`).digest('base64url').slice(0, 16)
}
