import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ColumnValue } from '../contract/table-definition.js'

/** Encodes and checks the keyset cursors of one server (see createCursorCodec). */
export interface CursorCodec {
  encode(cursorKey: string, position: readonly ColumnValue[]): string
  /** The position, or null when the cursor is malformed, edited, signed with another key or made for another cursor key. */
  decode(cursor: string, cursorKey: string, length: number): ColumnValue[] | null
}

/**
 * Without RESTMINT_CURSOR_SECRET, one random key per process: cursors then
 * stop working when the process restarts and are refused by other instances.
 */
const PROCESS_KEY = randomBytes(32)

/**
 * Opaque keyset cursors: base64url of the position (the sort-key values of
 * the last row, then its id) together with the cursor key it belongs to (the
 * route path with the version prefix, the parent, sort and filters),
 * then an HMAC-SHA-256 of both under `secret`. A cursor replayed on another
 * collection, with another sort or other filters, or edited, no longer
 * matches and is refused. It is integrity, not secrecy: the position is
 * readable, and grants nothing the query string does not.
 */
export function createCursorCodec(secret: string | undefined): CursorCodec {
  const key = secret === undefined || secret === '' ? PROCESS_KEY : Buffer.from(secret, 'utf8')
  const sign = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest()
  return {
    encode(cursorKey, position) {
      const payload = JSON.stringify([cursorKey, position])
      return `${Buffer.from(payload, 'utf8').toString('base64url')}.${sign(payload).toString('base64url')}`
    },
    decode(cursor, cursorKey, length) {
      const [body, signature, extra] = cursor.split('.')
      if (!body || !signature || extra !== undefined || !BASE64URL.test(body) || !BASE64URL.test(signature)) return null
      const payload = Buffer.from(body, 'base64url').toString('utf8')
      const given = Buffer.from(signature, 'base64url')
      const expected = sign(payload)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
      let decoded: unknown
      try {
        decoded = JSON.parse(payload)
      } catch {
        return null
      }
      if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== cursorKey) return null
      const position: unknown = decoded[1]
      if (!Array.isArray(position) || position.length !== length || !position.every(isColumnValue)) return null
      return position
    },
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/

function isColumnValue(value: unknown): value is ColumnValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}
