import RandExpModule from 'randexp'
import { matchesFormat } from '../contract/matches-format.js'
import { ajvRuntime } from '../contract/validator.js'
import { sortTablesByDependency } from './sort-tables-by-dependency.js'
import { sampleJsonValue } from './sample-json-value.js'
import type { Storage } from './storage.js'
import { MissingReferenceError, UniqueViolationError } from './storage-errors.js'
import type { ColumnDefinition, ColumnValue, Row, TableDefinition } from '../contract/table-definition.js'

// randexp is CommonJS whose module.exports is the class; its types describe only a default export.
const RandExp = RandExpModule as unknown as typeof RandExpModule.default

const ROWS_PER_TABLE = 3
/** Strings tried per value against a field's pattern, lengths and format before the table is left empty. */
const STRING_ATTEMPTS = 50

/**
 * Fills an empty database with a few rows per table made up from the column
 * definitions, so a freshly started example API has something to show. Every
 * value satisfies what the body validators check of its field: enum, format,
 * bounds, lengths and pattern (strings for a pattern come from randexp, seeded,
 * so every run makes the same rows). A database with a row in any table is
 * left as it is: sample rows never mix with real ones. A table stops being
 * seeded at the first made-up row the database refuses (a duplicate in a
 * `unique` column, say), or when no value fits a field; a table whose foreign
 * keys have nothing to point at is left empty. Returns how many rows it wrote.
 */
export async function seedSampleRows(storage: Storage, tables: readonly TableDefinition[]): Promise<number> {
  for (const table of tables) {
    const { rows } = await storage.list(table, { rowFilter: {}, limit: 1, offset: 0, count: 'none' })
    if (rows.length > 0) return 0
  }
  const ids = new Map<string, number[]>()
  let written = 0
  for (const table of sortTablesByDependency(tables)) {
    const inserted: number[] = []
    for (let index = 0; index < ROWS_PER_TABLE; index++) {
      const row = sampleRow(table, index, ids)
      if (!row) break
      try {
        inserted.push(Number((await storage.insert(table, row)).id))
      } catch (error) {
        if (error instanceof UniqueViolationError || error instanceof MissingReferenceError) break
        throw error
      }
    }
    ids.set(table.name, inserted)
    written += inserted.length
  }
  return written
}

function sampleRow(table: TableDefinition, index: number, ids: ReadonlyMap<string, number[]>): Row | null {
  const row: Row = {}
  for (const column of table.columns) {
    if (column.readOnly || column.owner) continue
    const value = sampleValue(table, column, index, ids)
    if (value === undefined) return null
    row[column.name] = value
  }
  return row
}

/** A value for the `index`th row, or undefined when none fits the column. */
function sampleValue(
  table: TableDefinition,
  column: ColumnDefinition,
  index: number,
  ids: ReadonlyMap<string, number[]>,
): ColumnValue | undefined {
  if (column.references) {
    const candidates = ids.get(column.references.table) ?? []
    return candidates.length > 0 ? candidates[index % candidates.length] : undefined
  }
  const number = index + 1
  if (column.enum) {
    const values = column.enum.filter((value) => fits(column, value))
    return values.length > 0 ? values[index % values.length] : undefined
  }
  switch (column.type) {
    case 'boolean':
      return index % 2 === 0
    case 'integer':
    case 'number': {
      const preferred =
        column.default !== null && !column.unique ? column.default : number * (column.type === 'number' ? 10.5 : 1)
      return sampleNumber(column, Number(preferred), index)
    }
    case 'date':
      return `2026-01-0${number}`
    case 'datetime':
      return `2026-01-0${number}T12:00:00.000Z`
    case 'string':
      return sampleString(table, column, index)
    case 'decimal':
      return sampleDecimal(column, number)
    case 'json':
      return sampleJsonValue(column.schema ?? {}) as ColumnValue
    case 'array':
      // Valid whatever the items' options (the validators', not in the definition): arrays have no minimum.
      return []
  }
}

/** `1.50`, `2.50`…: the row's number and a half, within the column's digits (`0.5` when it has no integer digits). */
function sampleDecimal(column: ColumnDefinition, number: number): string {
  const scale = column.scale ?? 0
  const integer = (column.precision ?? 1) - scale === 0 ? '0' : String(number % 10)
  return scale === 0 ? integer : `${integer}.${'5'.padEnd(scale, '0')}`
}

/**
 * `preferred` when it is within the bounds; else spread over them from the
 * minimum (integers wrap around a range narrower than the rows).
 */
function sampleNumber(column: ColumnDefinition, preferred: number, index: number): number | undefined {
  if (fits(column, preferred)) return preferred
  const low = column.minimum ?? (column.maximum ?? 0) - ROWS_PER_TABLE
  const high = column.maximum ?? low + ROWS_PER_TABLE
  if (column.type === 'number') return low + ((high - low) * index) / ROWS_PER_TABLE
  const [first, last] = [Math.ceil(low), Math.floor(high)]
  return first <= last ? first + (index % (last - first + 1)) : undefined
}

/**
 * A readable string (`post title 1`, or the format's sample), cut or padded
 * to the lengths; when the field has a pattern it does not match, strings
 * randexp makes from the pattern, until one fits every constraint
 * (undefined when none of STRING_ATTEMPTS does).
 */
function sampleString(table: TableDefinition, column: ColumnDefinition, index: number): string | undefined {
  const number = index + 1
  const readable = column.format
    ? SAMPLE_FORMATS[column.format](number)
    : fitLength(column, `${table.singular} ${column.name.replaceAll('_', ' ')}`, ` ${number}`)
  if (fits(column, readable)) return readable
  if (column.pattern === undefined) return undefined
  const generator = new RandExp(new RegExp(column.pattern, 'u'))
  // Repetitions (`*`, `+`, `{2,}`) stay short, and the same seed makes the same rows on every run.
  generator.max = Math.min(column.maxLength ?? 12, 12)
  const random = seededRandom(index + 1)
  generator.randInt = (from: number, to: number) => from + Math.floor(random() * (to - from + 1))
  // randexp makes only the part an unanchored pattern matches (`@example\.org$`): a prefix may complete it to the format.
  const prefixes = column.pattern.startsWith('^') ? [''] : ['', `sample${number}`]
  for (let attempt = 0; attempt < STRING_ATTEMPTS; attempt++) {
    const generated = generator.gen()
    const candidate = prefixes.map((prefix) => prefix + generated).find((text) => fits(column, text))
    if (candidate !== undefined) return candidate
  }
  return undefined
}

/** `text` then `suffix`, `text` cut to keep within maxLength code points (rows stay distinct), or padded with `x` to minLength. */
function fitLength(column: ColumnDefinition, text: string, suffix: string): string {
  const end = [...suffix]
  const codePoints = [...text].slice(0, Math.max((column.maxLength ?? Infinity) - end.length, 0))
  while (codePoints.length + end.length < (column.minLength ?? 0)) codePoints.push('x')
  return [...codePoints, ...end].join('')
}

/** Whether the body validators accept `value` for the column: bounds, lengths, pattern and format. */
function fits(column: ColumnDefinition, value: string | number): boolean {
  if (typeof value === 'number') {
    if (column.type === 'integer' && !Number.isSafeInteger(value)) return false
    return (column.minimum ?? -Infinity) <= value && value <= (column.maximum ?? Infinity)
  }
  const length = ajvRuntime.ucs2length(value)
  if (length < (column.minLength ?? 0) || length > (column.maxLength ?? Infinity)) return false
  if (column.pattern !== undefined && !new RegExp(column.pattern, 'u').test(value)) return false
  return column.format === undefined || matchesFormat(column.format, value)
}

/** mulberry32: a small deterministic generator, so seeding makes the same strings on every run. */
function seededRandom(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

const SAMPLE_FORMATS = {
  email: (number: number) => `sample${number}@example.com`,
  uri: (number: number) => `https://example.com/samples/${number}`,
  uuid: (number: number) => `00000000-0000-4000-8000-00000000000${number}`,
}
