import { readFileSync } from 'node:fs'
import { FIELD_TYPES } from '../contract/field-type.js'
import { ON_DELETE_ACTIONS } from '../contract/table-definition.js'
import { MigrationError } from './migration-error.js'
import type { StorageSnapshot } from './storage-snapshot.js'

/**
 * A migration's `snapshot.json`, checked to be what `migrate create` writes
 * down to each column, so that a hand-edited or truncated file is named with
 * the key that is wrong rather than failing somewhere that reads it. Throws
 * MigrationError naming the file and the key.
 */
export function readSnapshotFile(path: string): StorageSnapshot {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new MigrationError(`${path} cannot be read (${(error as Error).message}); ${RESTORE}`)
  }
  const problem = findSnapshotProblem(data)
  if (problem !== null) throw new MigrationError(`${path} is not a restmint snapshot: ${problem}; ${RESTORE}`)
  return data as StorageSnapshot
}

const RESTORE = 'restore it from version control (every migration needs the snapshot.json that migrate create wrote)'

type Json = Record<string, unknown>

function findSnapshotProblem(data: unknown): string | null {
  if (!isObject(data) || data.restmint_snapshot !== 1) return 'it needs "restmint_snapshot": 1'
  if (!Array.isArray(data.tables)) return '"tables" must be a list'
  for (const [t, table] of data.tables.entries()) {
    const at = `tables[${t}]`
    if (!isObject(table) || typeof table.name !== 'string') return `${at} needs a "name"`
    if (!Array.isArray(table.columns)) return `${at} ("${table.name}") needs a "columns" list`
    if (!Array.isArray(table.indexes) || !table.indexes.every(isListOfStrings)) {
      return `${at} ("${table.name}") needs an "indexes" list of column lists`
    }
    if (table.softDelete !== undefined && table.softDelete !== true) {
      return `${at} ("${table.name}") has "softDelete" other than true (leave it out for a table without soft delete)`
    }
    for (const [c, column] of table.columns.entries()) {
      const problem = findColumnProblem(column)
      if (problem !== null) return `${at}.columns[${c}] of table "${table.name}" ${problem}`
    }
  }
  return null
}

function findColumnProblem(column: unknown): string | null {
  if (!isObject(column) || typeof column.name !== 'string') return 'needs a "name"'
  if (!FIELD_TYPES.includes(column.type as never)) return `needs a "type" among ${FIELD_TYPES.join(', ')}`
  if (typeof column.nullable !== 'boolean' || typeof column.unique !== 'boolean') {
    return 'needs "nullable" and "unique" as true or false'
  }
  if (!['string', 'number', 'boolean'].includes(typeof column.default) && column.default !== null) {
    return 'needs a "default": a string, number, boolean or null'
  }
  if (column.type === 'decimal' && !(Number.isInteger(column.precision) && Number.isInteger(column.scale))) {
    return 'needs a "precision" and a "scale" (whole numbers) as a decimal'
  }
  const references = column.references
  if (references === undefined) return null
  if (
    !isObject(references) ||
    typeof references.table !== 'string' ||
    !ON_DELETE_ACTIONS.includes(references.onDelete as never)
  ) {
    return `needs "references" as { "table", "onDelete": ${ON_DELETE_ACTIONS.join(' or ')} }`
  }
  return null
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isListOfStrings(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}
