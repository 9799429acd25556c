import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { nameIndex } from '../../runtime/storage/constraint-names.js'
import type { Filter, ListOptions, SortKey, Storage } from '../../runtime/storage/storage.js'
import type { ColumnValue, Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import {
  column,
  createTestDatabases,
  DIALECTS,
  defineTables,
  foreignKey,
  optional,
  POSTGRES_URL,
  table,
  type Dialect,
  type TestDatabase,
} from './storage-fixtures.js'

/**
 * The query side of the storage (issue #3): filters, multi-key sort with NULLs,
 * offset and keyset pagination, counting, findWhereIn, statement counts and
 * indexes, on both dialects.
 */

// ---------------------------------------------------------------- fixtures

const catalogIndexes = [
  { columns: ['title', 'id'] },
  { columns: ['subtitle', 'id'] },
  { columns: ['price', 'id'] },
  { columns: ['sold_at', 'id'] },
  { columns: ['price'] },
  { columns: ['stock'] },
  { columns: ['released_on'] },
]

const schema = defineTables([
  {
    name: 'catalog',
    columns: [
      column('title', 'string'),
      optional('subtitle', 'string'),
      optional('price', 'number'),
      column('stock', 'integer'),
      optional('released_on', 'date'),
      optional('sold_at', 'datetime'),
      column('active', 'boolean'),
      optional('featured', 'boolean'),
      optional('sku', 'string', { unique: true }),
    ],
    indexes: catalogIndexes,
  },
  {
    name: 'notes',
    columns: [foreignKey('catalog_id', 'catalog', 'cascade', true), column('body', 'string')],
    indexes: [{ columns: ['catalog_id'] }, { columns: ['body', 'id'] }],
  },
])
const catalog = table(schema, 'catalog')
const notes = table(schema, 'notes')

const databases = createTestDatabases()
afterEach(() => databases.closeOpened())
afterAll(() => databases.dropAll())

interface Opened {
  readonly storage: Storage
  readonly database: TestDatabase
  /** SQL of every statement since the last `statements.length = 0`. */
  readonly statements: string[]
}

/** A storage on the catalog and notes tables, empty: one per dialect, emptied for each test. */
async function open(dialect: Dialect): Promise<Opened> {
  const statements: string[] = []
  const { storage, database } = await databases.emptyStorage(dialect, schema, (sql) => statements.push(sql))
  return { storage, database, statements }
}

/** A storage on a new database of its own, prepared for `tables`: for tests of what prepare() creates and of plans. */
async function openNew(dialect: Dialect, tables: readonly TableDefinition[] = schema): Promise<Opened> {
  const database = databases.newDatabase(dialect)
  const statements: string[] = []
  const storage = database.open(tables, (sql) => statements.push(sql))
  await storage.prepare()
  statements.length = 0
  return { storage, database, statements }
}

/** Rows for the filter tests; `title` names each one. Ids follow the order. */
const FILTER_ROWS: Row[] = [
  {
    title: 'Alpha',
    subtitle: 'red 100%',
    price: 4.25,
    stock: 0,
    released_on: '2024-01-31',
    sold_at: '2026-01-01T10:00:00+02:00',
    active: true,
    featured: true,
  },
  {
    title: 'beta',
    subtitle: 'RED_LINE',
    price: 10,
    stock: 5,
    released_on: '2024-02-01',
    sold_at: '2026-01-01T08:00:00.001Z',
    active: false,
    featured: false,
  },
  {
    title: 'Gamma',
    subtitle: 'redXline',
    price: null,
    stock: 5,
    released_on: null,
    sold_at: null,
    active: true,
    featured: null,
  },
  {
    title: 'delta',
    subtitle: null,
    price: 500,
    stock: 12,
    released_on: '2023-12-31',
    sold_at: '2025-12-31T23:59:59.999Z',
    active: true,
    featured: true,
  },
  {
    title: 'epsilon',
    subtitle: 'back\\slash',
    price: -1.5,
    stock: -3,
    released_on: '2024-01-31',
    sold_at: '2026-06-01T00:00:00Z',
    active: false,
    featured: null,
  },
  {
    title: 'Zeta',
    subtitle: 'Ünïcode red',
    price: 500.5,
    stock: 100,
    released_on: '2025-05-05',
    sold_at: '2026-01-01T09:00:00+01:00',
    active: true,
    featured: false,
  },
  {
    title: 'eta%',
    subtitle: '%',
    price: 0,
    stock: 7,
    released_on: '2024-02-29',
    sold_at: '2024-02-29T12:00:00Z',
    active: false,
    featured: true,
  },
  {
    title: 'theta_',
    subtitle: '_',
    price: 10,
    stock: 0,
    released_on: null,
    sold_at: null,
    active: true,
    featured: false,
  },
]
const ALL_TITLES = FILTER_ROWS.map((row) => row.title as string)
const except = (...titles: string[]) => ALL_TITLES.filter((title) => !titles.includes(title))

const f = (column: string, operator: Filter['operator'], value: Filter['value']): Filter => ({
  column,
  operator,
  value,
})

/** Each case: the filters, and the titles they keep, in id order. */
const FILTER_CASES: ReadonlyArray<readonly [string, Filter[], string[]]> = [
  // integer
  ['integer eq', [f('stock', 'eq', 5)], ['beta', 'Gamma']],
  ['integer ne', [f('stock', 'ne', 5)], except('beta', 'Gamma')],
  ['integer gt', [f('stock', 'gt', 5)], ['delta', 'Zeta', 'eta%']],
  ['integer gte', [f('stock', 'gte', 5)], ['beta', 'Gamma', 'delta', 'Zeta', 'eta%']],
  ['integer lt', [f('stock', 'lt', 0)], ['epsilon']],
  ['integer lte', [f('stock', 'lte', 0)], ['Alpha', 'epsilon', 'theta_']],
  ['integer in, one value', [f('stock', 'in', [12])], ['delta']],
  ['integer in, many values', [f('stock', 'in', [0, 7, 100, 999])], ['Alpha', 'Zeta', 'eta%', 'theta_']],
  // number (nullable)
  ['number eq', [f('price', 'eq', 10)], ['beta', 'theta_']],
  ['number ne keeps NULL', [f('price', 'ne', 10)], except('beta', 'theta_')],
  ['number gt', [f('price', 'gt', 10)], ['delta', 'Zeta']],
  ['number gte', [f('price', 'gte', 10)], ['beta', 'delta', 'Zeta', 'theta_']],
  ['number lt', [f('price', 'lt', 0)], ['epsilon']],
  ['number lte', [f('price', 'lte', 4.25)], ['Alpha', 'epsilon', 'eta%']],
  ['number range on one column', [f('price', 'gte', 0), f('price', 'lt', 10)], ['Alpha', 'eta%']],
  ['number in, reals and integers', [f('price', 'in', [4.25, 500])], ['Alpha', 'delta']],
  ['number in, one value', [f('price', 'in', [10])], ['beta', 'theta_']],
  ['number null', [f('price', 'null', true)], ['Gamma']],
  ['number not null', [f('price', 'null', false)], except('Gamma')],
  // string: code point order, case-sensitive equality
  ['string eq', [f('title', 'eq', 'beta')], ['beta']],
  ['string eq is case-sensitive', [f('title', 'eq', 'Beta')], []],
  ['string ne', [f('title', 'ne', 'beta')], except('beta')],
  ['string gt (code point order)', [f('title', 'gt', 'Zeta')], ['beta', 'delta', 'epsilon', 'eta%', 'theta_']],
  ['string gte', [f('title', 'gte', 'eta%')], ['eta%', 'theta_']],
  ['string lt', [f('title', 'lt', 'beta')], ['Alpha', 'Gamma', 'Zeta']],
  ['string lte', [f('title', 'lte', 'Gamma')], ['Alpha', 'Gamma']],
  ['string in', [f('title', 'in', ['Alpha', 'eta%', 'nope'])], ['Alpha', 'eta%']],
  ['string in, one value', [f('title', 'in', ['theta_'])], ['theta_']],
  ['contains is case-insensitive', [f('subtitle', 'contains', 'red')], ['Alpha', 'beta', 'Gamma', 'Zeta']],
  ['contains, upper-case value', [f('title', 'contains', 'ETA')], ['beta', 'Zeta', 'eta%', 'theta_']],
  ['contains % literally', [f('subtitle', 'contains', '%')], ['Alpha', 'eta%']],
  ['contains _ literally', [f('subtitle', 'contains', '_')], ['beta', 'theta_']],
  ['contains d_l literally (not redXline)', [f('subtitle', 'contains', 'd_l')], ['beta']],
  ['contains \\ literally', [f('subtitle', 'contains', '\\')], ['epsilon']],
  ['contains 100% literally', [f('subtitle', 'contains', '0%')], ['Alpha']],
  ['starts_with is case-insensitive', [f('subtitle', 'starts_with', 'RED')], ['Alpha', 'beta', 'Gamma']],
  ['starts_with red_ literally', [f('subtitle', 'starts_with', 'red_')], ['beta']],
  ['starts_with % literally', [f('subtitle', 'starts_with', '%')], ['eta%']],
  ['string ne keeps NULL', [f('subtitle', 'ne', 'red 100%')], except('Alpha')],
  ['string null', [f('subtitle', 'null', true)], ['delta']],
  // date
  ['date eq', [f('released_on', 'eq', '2024-01-31')], ['Alpha', 'epsilon']],
  ['date ne keeps NULL', [f('released_on', 'ne', '2024-01-31')], except('Alpha', 'epsilon')],
  ['date gt', [f('released_on', 'gt', '2024-01-31')], ['beta', 'Zeta', 'eta%']],
  ['date gte', [f('released_on', 'gte', '2024-02-29')], ['Zeta', 'eta%']],
  ['date lt', [f('released_on', 'lt', '2024-01-01')], ['delta']],
  ['date lte', [f('released_on', 'lte', '2024-01-31')], ['Alpha', 'delta', 'epsilon']],
  ['date in', [f('released_on', 'in', ['2024-02-29', '2023-12-31'])], ['delta', 'eta%']],
  ['date null', [f('released_on', 'null', true)], ['Gamma', 'theta_']],
  // datetime: compared as instants, whatever the offset written
  ['datetime eq, UTC', [f('sold_at', 'eq', '2026-01-01T08:00:00Z')], ['Alpha', 'Zeta']],
  ['datetime eq, offset', [f('sold_at', 'eq', '2026-01-01T09:00:00+01:00')], ['Alpha', 'Zeta']],
  ['datetime ne keeps NULL', [f('sold_at', 'ne', '2026-01-01T08:00:00.000Z')], except('Alpha', 'Zeta')],
  ['datetime gt (milliseconds)', [f('sold_at', 'gt', '2026-01-01T08:00:00.000Z')], ['beta', 'epsilon']],
  ['datetime gte', [f('sold_at', 'gte', '2026-01-01T08:00:00.001Z')], ['beta', 'epsilon']],
  ['datetime lt, offset', [f('sold_at', 'lt', '2026-01-01T10:00:00+02:00')], ['delta', 'eta%']],
  ['datetime lte', [f('sold_at', 'lte', '2025-12-31T23:59:59.999Z')], ['delta', 'eta%']],
  [
    'datetime in, offsets',
    [f('sold_at', 'in', ['2026-01-01T09:00:00+01:00', '2024-02-29T13:00:00+01:00'])],
    ['Alpha', 'Zeta', 'eta%'],
  ],
  ['datetime not null', [f('sold_at', 'null', false)], except('Gamma', 'theta_')],
  // boolean
  ['boolean eq true', [f('active', 'eq', true)], ['Alpha', 'Gamma', 'delta', 'Zeta', 'theta_']],
  ['boolean eq false', [f('active', 'eq', false)], ['beta', 'epsilon', 'eta%']],
  ['boolean ne', [f('active', 'ne', true)], ['beta', 'epsilon', 'eta%']],
  ['boolean null on a NOT NULL column', [f('active', 'null', true)], []],
  ['nullable boolean eq', [f('featured', 'eq', true)], ['Alpha', 'delta', 'eta%']],
  ['nullable boolean ne true keeps NULL', [f('featured', 'ne', true)], ['beta', 'Gamma', 'epsilon', 'Zeta', 'theta_']],
  [
    'nullable boolean ne false keeps NULL',
    [f('featured', 'ne', false)],
    ['Alpha', 'Gamma', 'delta', 'epsilon', 'eta%'],
  ],
  ['nullable boolean null', [f('featured', 'null', true)], ['Gamma', 'epsilon']],
  ['nullable boolean not null', [f('featured', 'null', false)], except('Gamma', 'epsilon')],
  ['boolean in', [f('featured', 'in', [true])], ['Alpha', 'delta', 'eta%']],
  // AND
  [
    'several filters combine with AND',
    [f('stock', 'gte', 5), f('price', 'lte', 500), f('active', 'eq', true)],
    ['delta'],
  ],
  [
    'contains AND not null',
    [f('title', 'contains', 'eta'), f('featured', 'null', false)],
    ['beta', 'Zeta', 'eta%', 'theta_'],
  ],
]

/** NULL sorts first ascending and last descending; strings by code point; `id` breaks ties. */
function compareRows(keys: readonly SortKey[]) {
  const all = keys.some((key) => key.column === 'id')
    ? keys
    : [...keys, { column: 'id', direction: keys.at(-1)?.direction ?? 'asc' } as const]
  return (left: Row, right: Row): number => {
    for (const { column, direction } of all) {
      const order = compareValues(left[column] ?? null, right[column] ?? null)
      if (order !== 0) return direction === 'asc' ? order : -order
    }
    return 0
  }
}

function compareValues(left: ColumnValue, right: ColumnValue): number {
  if (left === right) return 0
  if (left === null) return -1
  if (right === null) return 1
  if (typeof left === 'number' && typeof right === 'number') return left - right
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right)
  return String(left) < String(right) ? -1 : 1
}

/** Deterministic values with many duplicates and NULLs, for the sort and walk tests. */
function walkRows(count: number, seed = 7): Row[] {
  let state = seed
  const next = (modulo: number) => {
    state = (state * 1103515245 + 12345) % 2147483648
    return Math.floor(state / 65536) % modulo
  }
  const pick = <T>(values: readonly T[]): T => values[next(values.length)]!
  return Array.from({ length: count }, () => ({
    title: pick(['a', 'B', 'b', 'A', 'c', '_x', 'b']),
    subtitle: pick([null, 'x', 'Y', null, 'z']),
    price: pick([null, 1, 2.5, 2.5, -3, null, 10]),
    stock: pick([1, 2, 3]),
    released_on: pick([null, '2024-01-01', '2024-06-30', '2023-12-31']),
    sold_at: pick([null, '2026-01-01T08:00:00.000Z', '2026-01-01T09:00:00+01:00', '2025-06-01T12:30:00.250Z']),
    active: pick([true, false]),
    featured: pick([null, true, false]),
  }))
}

const SORTS: ReadonlyArray<readonly SortKey[]> = [
  [],
  [{ column: 'price', direction: 'asc' }],
  [{ column: 'price', direction: 'desc' }],
  [{ column: 'title', direction: 'asc' }],
  [
    { column: 'title', direction: 'asc' },
    { column: 'price', direction: 'desc' },
  ],
  [
    { column: 'featured', direction: 'desc' },
    { column: 'released_on', direction: 'asc' },
  ],
  [
    { column: 'sold_at', direction: 'desc' },
    { column: 'stock', direction: 'asc' },
    { column: 'subtitle', direction: 'desc' },
  ],
  [
    { column: 'subtitle', direction: 'asc' },
    { column: 'active', direction: 'asc' },
  ],
  [{ column: 'id', direction: 'desc' }],
  [
    { column: 'stock', direction: 'desc' },
    { column: 'id', direction: 'asc' },
  ],
  [{ column: 'created_at', direction: 'desc' }],
]
const describeSort = (sort: readonly SortKey[]) =>
  sort.length === 0 ? '(none)' : sort.map((key) => `${key.direction === 'desc' ? '-' : ''}${key.column}`).join(',')

/** The keyset position after `row`: each sort key's value, then the id. */
const positionOf = (row: Row, sort: readonly SortKey[]): ColumnValue[] => [
  ...sort.map((key) => row[key.column] ?? null),
  row.id ?? null,
]

async function insertAll(storage: Storage, rows: readonly Row[]): Promise<Row[]> {
  const stored: Row[] = []
  for (const row of rows) stored.push(await storage.insert(catalog, row))
  return stored
}

async function walkByOffset(storage: Storage, sort: readonly SortKey[], size: number): Promise<Row[]> {
  const seen: Row[] = []
  for (let offset = 0; ; offset += size) {
    const { rows } = await storage.list(catalog, { rowFilter: {}, sort, limit: size, offset, count: 'none' })
    seen.push(...rows)
    if (rows.length < size) return seen
  }
}

async function walkByKeyset(
  storage: Storage,
  sort: readonly SortKey[],
  size: number,
  betweenPages: (page: number, seen: readonly Row[]) => Promise<void> = async () => {},
): Promise<Row[]> {
  const seen: Row[] = []
  let after: ColumnValue[] | undefined
  for (let page = 0; page < 1000; page++) {
    const options: ListOptions = { rowFilter: {}, sort, limit: size, count: 'none', ...(after ? { after } : {}) }
    const { rows, total } = await storage.list(catalog, options)
    expect(total).toBeNull()
    seen.push(...rows)
    if (rows.length < size) return seen
    after = positionOf(rows.at(-1)!, sort)
    await betweenPages(page, seen)
  }
  throw new Error('the keyset walk does not end')
}

const titles = (rows: readonly Row[]) => rows.map((row) => row.title)
const ids = (rows: readonly Row[]) => rows.map((row) => row.id)

// ---------------------------------------------------------------- both dialects

for (const dialect of DIALECTS) {
  describe(`list queries on ${dialect}`, () => {
    describe('filters', () => {
      it.each(FILTER_CASES)('%s', async (_name, filters, expected) => {
        const { storage } = await open(dialect)
        await insertAll(storage, FILTER_ROWS)
        const result = await storage.list(catalog, { rowFilter: {}, filters, limit: 100, offset: 0 })
        expect(titles(result.rows)).toEqual(expected)
        expect(result.total).toBe(expected.length)
      })

      it('decodes the rows it filters and pages the filtered set', async () => {
        const { storage } = await open(dialect)
        const stored = await insertAll(storage, FILTER_ROWS)
        const filters = [f('featured', 'null', false)]
        const result = await storage.list(catalog, { rowFilter: {}, filters, limit: 2, offset: 1 })
        const expected = stored.filter((row) => row.featured !== null)
        expect(result).toEqual({ rows: expected.slice(1, 3), total: expected.length, count: 'exact' })
        expect(typeof result.rows[0]!.active).toBe('boolean')
      })

      it('combines filters with the row filter', async () => {
        const { storage } = await open(dialect)
        const [first, second] = await insertAll(storage, FILTER_ROWS.slice(0, 2))
        for (const [parent, body] of [
          [first, 'one'],
          [first, 'two'],
          [second, 'three'],
          [first, 'Three'],
        ] as const) {
          await storage.insert(notes, { catalog_id: parent!.id!, body })
        }
        const result = await storage.list(notes, {
          rowFilter: { catalog_id: first!.id as number },
          filters: [f('body', 'contains', 't')],
          limit: 10,
        })
        expect(result.rows.map((row) => row.body)).toEqual(['two', 'Three'])
        expect(result.total).toBe(2)
      })

      it('rejects unknown columns, LIKE on non-strings and malformed values', async () => {
        const { storage } = await open(dialect)
        const list = (options: Partial<ListOptions>) => storage.list(catalog, { rowFilter: {}, limit: 5, ...options })
        await expect(list({ filters: [f('nope', 'eq', 1)] })).rejects.toThrow('unknown column "catalog.nope"')
        await expect(list({ filters: [f('stock', 'contains', '1')] })).rejects.toThrow('needs a string column')
        await expect(list({ filters: [f('stock', 'in', 1)] })).rejects.toThrow('array')
        await expect(list({ filters: [f('stock', 'eq', [1])] })).rejects.toThrow('not an array')
        await expect(list({ filters: [f('stock', 'null', 'yes')] })).rejects.toThrow('true or false')
        await expect(list({ sort: [{ column: 'nope', direction: 'asc' }] })).rejects.toThrow('unknown column')
        await expect(list({ after: [1], sort: [{ column: 'stock', direction: 'asc' }] })).rejects.toThrow(
          'after takes 2 values',
        )
        await expect(list({ after: [1], offset: 5 })).rejects.toThrow('either offset or after')
      })
    })

    describe('sort', () => {
      it.each(SORTS.map((sort) => [describeSort(sort), sort] as const))(
        'orders by %s with NULLs first ascending, last descending, then id',
        async (_name, sort) => {
          const { storage } = await open(dialect)
          const stored = await insertAll(storage, walkRows(40))
          const { rows } = await storage.list(catalog, { rowFilter: {}, sort, limit: 100 })
          expect(ids(rows)).toEqual(ids([...stored].sort(compareRows(sort))))
        },
      )

      it('sorts strings by code point, whatever the database locale', async () => {
        const { storage } = await open(dialect)
        await insertAll(
          storage,
          ['b', 'B', 'a', '_', 'A', 'Z', 'z', '0', 'é'].map((title) => ({ title, stock: 1, active: true })),
        )
        const { rows } = await storage.list(catalog, {
          rowFilter: {},
          sort: [{ column: 'title', direction: 'asc' }],
          limit: 100,
        })
        expect(titles(rows)).toEqual(['0', 'A', 'B', 'Z', '_', 'a', 'b', 'z', 'é'])
      })
    })

    describe('pagination', () => {
      it.each(SORTS.map((sort) => [describeSort(sort), sort] as const))(
        'a keyset walk by %s visits every row once, in the order of the offset walk',
        async (_name, sort) => {
          const { storage } = await open(dialect)
          const stored = await insertAll(storage, walkRows(45, 11))
          const expected = ids([...stored].sort(compareRows(sort)))
          expect(ids(await walkByOffset(storage, sort, 7))).toEqual(expected)
          const walked = ids(await walkByKeyset(storage, sort, 7))
          expect(walked).toEqual(expected)
          expect(new Set(walked).size).toBe(stored.length)
          // A page size that divides the rows exactly ends with an empty page.
          expect(ids(await walkByKeyset(storage, sort, 5))).toEqual(expected)
        },
      )

      it('keyset pages start strictly after a position holding NULLs', async () => {
        const { storage } = await open(dialect)
        const stored = await insertAll(storage, walkRows(30, 3))
        for (const sort of SORTS) {
          const ordered = [...stored].sort(compareRows(sort))
          for (const [index, row] of ordered.entries()) {
            if (!sort.some((key) => row[key.column] === null) && index % 5 !== 0) continue
            const { rows } = await storage.list(catalog, {
              rowFilter: {},
              sort,
              after: positionOf(row, sort),
              limit: 100,
              count: 'none',
            })
            expect(ids(rows), `${describeSort(sort)} after row ${String(row.id)}`).toEqual(
              ids(ordered.slice(index + 1)),
            )
          }
        }
      })

      it.each([
        [[{ column: 'price', direction: 'desc' }]],
        [
          [
            { column: 'title', direction: 'asc' },
            { column: 'featured', direction: 'desc' },
          ],
        ],
        [[{ column: 'subtitle', direction: 'asc' }]],
        [[]],
      ] as Array<[SortKey[]]>)(
        'a keyset walk while rows are inserted and deleted visits every row that stayed exactly once (%j)',
        async (sort) => {
          const { storage } = await open(dialect)
          const initial = await insertAll(storage, walkRows(50, 5))
          const extra = walkRows(60, 99)
          const deleted = new Set<number>()
          const remaining = () => initial.filter((row) => !deleted.has(row.id as number))
          const visited = await walkByKeyset(storage, sort, 6, async (page, seen) => {
            // Two new rows (sorting anywhere), one unvisited and one visited row deleted.
            await insertAll(storage, extra.slice(page * 2, page * 2 + 2))
            const seenIds = new Set(ids(seen))
            const unvisited = remaining().filter((row) => !seenIds.has(row.id))
            const visitedBefore = remaining().filter((row) => seenIds.has(row.id))
            const victims = [unvisited[(page * 7) % Math.max(unvisited.length, 1)], visitedBefore[0]]
            for (const victim of victims) {
              if (victim === undefined || deleted.has(victim.id as number)) continue
              deleted.add(victim.id as number)
              expect(await storage.delete(catalog, victim.id as number)).toBe(true)
            }
          })
          expect(deleted.size).toBeGreaterThan(10)
          const walked = ids(visited)
          expect(new Set(walked).size).toBe(walked.length)
          for (const row of remaining()) expect(walked.filter((id) => id === row.id)).toHaveLength(1)
          // And the walk never went backwards.
          const compare = compareRows(sort)
          for (let index = 1; index < visited.length; index++) {
            expect(compare(visited[index - 1]!, visited[index]!)).toBeLessThan(0)
          }
        },
      )

      it('counts the filtered rows on a keyset page when asked', async () => {
        const { storage } = await open(dialect)
        const stored = await insertAll(storage, walkRows(20, 1))
        const sort: SortKey[] = [{ column: 'price', direction: 'asc' }]
        const filters = [f('price', 'null', false)]
        const kept = stored.filter((row) => row.price !== null).sort(compareRows(sort))
        const result = await storage.list(catalog, {
          rowFilter: {},
          filters,
          sort,
          after: positionOf(kept[2]!, sort),
          limit: 3,
        })
        expect(result.total).toBe(kept.length)
        expect(ids(result.rows)).toEqual(ids(kept.slice(3, 6)))
      })
    })

    describe('statements', () => {
      it("issues the page query and a count, or with count: 'none' the page query alone", async () => {
        const { storage, statements } = await open(dialect)
        await insertAll(storage, FILTER_ROWS)
        statements.length = 0
        const filters = [f('price', 'gte', 0)]
        const sort: SortKey[] = [{ column: 'sold_at', direction: 'desc' }]
        const counted = await storage.list(catalog, { rowFilter: {}, filters, sort, limit: 2, offset: 2 })
        expect(counted.total).toBe(6)
        expect(statements).toHaveLength(2)
        expect(statements.filter((sql) => /count\(\*\)/i.test(sql))).toHaveLength(1)

        statements.length = 0
        const uncounted = await storage.list(catalog, {
          rowFilter: {},
          filters,
          sort,
          limit: 2,
          offset: 2,
          count: 'none',
        })
        expect(uncounted).toEqual({ rows: counted.rows, total: null, count: 'none' })
        expect(statements).toHaveLength(1)
        expect(statements[0]).not.toMatch(/count\(/i)
      })

      it('binds every value: one SQL text per shape, whatever the values and the length of an in list', async () => {
        const { storage, statements } = await open(dialect)
        await insertAll(storage, FILTER_ROWS)
        statements.length = 0
        const list = (values: ColumnValue[], after: ColumnValue[]) =>
          storage.list(catalog, {
            rowFilter: {},
            filters: [f('title', 'in', values), f('subtitle', 'contains', 'secret-needle')],
            sort: [{ column: 'price', direction: 'desc' }],
            after,
            limit: 3,
            count: 'none',
          })
        await list(['a'], [10, 3])
        await list(['a', 'b', 'c', 'd', 'e'], [2.5, 99])
        expect(statements).toHaveLength(2)
        expect(statements[1]).toBe(statements[0])
        expect(statements[0]).not.toMatch(/secret|'a'|2\.5/)
        // A NULL in the position is another shape (IS NULL instead of a placeholder).
        await list(['a'], [null, 3])
        expect(statements[2]).not.toBe(statements[0])
      })

      it('counts transaction control statements too', async () => {
        const { storage, statements } = await open(dialect)
        const [row] = await insertAll(storage, FILTER_ROWS.slice(0, 1))
        statements.length = 0
        await storage.delete(catalog, row!.id as number)
        expect(statements[0]).toMatch(/^begin/)
        expect(statements.at(-1)).toBe('commit')
        expect(statements.length).toBeGreaterThanOrEqual(4)
      })
    })

    describe('findWhereIn', () => {
      it('returns the rows holding any of the values, by id, in one statement for 1 or 500 values', async () => {
        const { storage, statements } = await open(dialect)
        const parents = await insertAll(storage, FILTER_ROWS)
        const created: Row[] = []
        for (let index = 0; index < 40; index++) {
          const parent = index % 5 === 4 ? null : parents[index % parents.length]!.id!
          created.push(await storage.insert(notes, { catalog_id: parent, body: `note ${index}` }))
        }
        statements.length = 0

        const one = await storage.findWhereIn(notes, 'catalog_id', [parents[1]!.id as number])
        expect(one).toEqual(created.filter((note) => note.catalog_id === parents[1]!.id))
        expect(statements).toHaveLength(1)

        const wanted = [parents[0]!.id as number, parents[3]!.id as number]
        const values = Array.from({ length: 500 }, (_, index) => (index < 2 ? wanted[index]! : 100_000 + index))
        values.push(wanted[0]!)
        const many = await storage.findWhereIn(notes, 'catalog_id', values.reverse())
        expect(many).toEqual(created.filter((note) => wanted.includes(note.catalog_id as number)))
        expect(statements).toHaveLength(2)
        expect(statements[1]).toBe(statements[0])

        expect(await storage.findWhereIn(catalog, 'id', [parents[2]!.id as number, parents[0]!.id as number])).toEqual([
          parents[0],
          parents[2],
        ])
        expect(statements).toHaveLength(3)
      })

      // Issue 6, item 11: bounded has-many includes.
      it('keeps the first perValue rows of each value, by id, in one statement of one shape', async () => {
        const { storage, statements } = await open(dialect)
        const parents = await insertAll(storage, FILTER_ROWS.slice(0, 3))
        const created: Row[] = []
        for (let index = 0; index < 12; index++) {
          // Interleaved, so each parent's first rows by id are not the first rows inserted.
          created.push(await storage.insert(notes, { catalog_id: parents[index % 3]!.id!, body: `note ${index}` }))
        }
        statements.length = 0
        const firstOf = (parent: Row, count: number) =>
          created.filter((note) => note.catalog_id === parent.id).slice(0, count)
        const values = parents.map((parent) => parent.id as number)

        expect(await storage.findWhereIn(notes, 'catalog_id', values, 2)).toEqual(
          [...firstOf(parents[0]!, 2), ...firstOf(parents[1]!, 2), ...firstOf(parents[2]!, 2)].sort(
            (a, b) => (a.id as number) - (b.id as number),
          ),
        )
        expect(await storage.findWhereIn(notes, 'catalog_id', [values[1]!], 10)).toEqual(firstOf(parents[1]!, 10))
        expect(await storage.findWhereIn(notes, 'catalog_id', values, 1)).toHaveLength(3)
        expect(statements).toHaveLength(3)
        expect(new Set(statements).size).toBe(1)
        // Each dialect as it caps best (DialectSyntax.perValueCap); the cap is a bound parameter either way.
        if (dialect === 'sqlite') {
          expect(statements[0]).toMatch(/json_each\(\?\).*order by "_restmint_capped"\."id" limit \?\)/)
        } else {
          expect(statements[0]).toMatch(/row_number\(\) over \(partition by "catalog_id" order by "id"\)/)
          expect(statements[0]).not.toMatch(/<= \d/)
        }
      })

      it('issues no statement for no values, and rejects an unknown column', async () => {
        const { storage, statements } = await open(dialect)
        expect(await storage.findWhereIn(notes, 'catalog_id', [])).toEqual([])
        expect(statements).toHaveLength(0)
        await expect(storage.findWhereIn(notes, 'nope', [1])).rejects.toThrow('unknown column "notes.nope"')
      })
    })

    describe('indexes', () => {
      it('creates every declared index, on a new database and on existing tables', async () => {
        const { database } = await openNew(dialect)
        const expected = [
          ...catalogIndexes.map((index) => nameIndex('catalog', index.columns)),
          nameIndex('notes', ['catalog_id']),
          nameIndex('notes', ['body', 'id']),
        ]
        expect(await readIndexNames(database)).toEqual(expect.arrayContaining(expected))

        // Tables created without the indexes get them on the next start, keeping their rows.
        const bare = defineTables([
          { name: 'things', columns: [column('label', 'string'), optional('rank', 'integer')] },
        ])
        const indexed = defineTables([
          {
            name: 'things',
            columns: [column('label', 'string'), optional('rank', 'integer')],
            indexes: [{ columns: ['rank', 'id'] }, { columns: ['label'] }, { columns: ['label'] }, { columns: ['id'] }],
          },
        ])
        const first = database.open(bare)
        await first.prepare()
        const thing = await first.insert(table(bare, 'things'), { label: 'kept' })
        await first.close()
        const names = ['things_rank__id_idx', 'things_label_idx']
        expect(await readIndexNames(database)).not.toEqual(expect.arrayContaining(names))
        const second = database.open(indexed)
        await second.prepare()
        await second.prepare()
        expect(await readIndexNames(database)).toEqual(expect.arrayContaining(names))
        expect(await second.find(table(indexed, 'things'), thing.id as number)).toEqual(thing)
      })

      it('orders index columns as list queries sort them', async () => {
        const { database } = await openNew(dialect)
        const definitions = await readIndexDefinitions(database)
        const title = definitions.get('catalog_title__id_idx')
        const subtitle = definitions.get('catalog_subtitle__id_idx')
        const price = definitions.get('catalog_price__id_idx')
        if (dialect === 'postgres') {
          // Strings in code point order; nullable columns NULLS FIRST.
          expect(title).toMatch(/\(title COLLATE "C", id\)/)
          expect(subtitle).toMatch(/\(subtitle COLLATE "C" NULLS FIRST, id\)/)
          expect(price).toMatch(/\(price NULLS FIRST, id\)/)
        } else {
          expect(title).toMatch(/\("title", "id"\)/)
          expect(price).toMatch(/\("price", "id"\)/)
        }
      })

      it('shortens long index names with a hash, keeping them distinct', async () => {
        const long = 'a_rather_long_column_name_for_an_index'
        const tables = defineTables([
          {
            name: 'very_long_table_name_for_indexes',
            columns: [column(long, 'string'), column(`${long}_too`, 'string')],
            indexes: [{ columns: [long, 'id'] }, { columns: [`${long}_too`, 'id'] }],
          },
        ])
        const { database } = await openNew(dialect, tables)
        const names = (await readIndexNames(database)).filter(
          (name) => name.startsWith('very_long') && name.endsWith('_idx'),
        )
        expect(names).toHaveLength(2)
        for (const name of names) {
          expect(name.length).toBeLessThanOrEqual(63)
          expect(name).toMatch(/_[0-9a-f]{8}_idx$/)
        }
      })

      it('serves the keyset and the common filter from indexes', async () => {
        const { storage, database, statements } = await openNew(dialect)
        await insertAll(storage, walkRows(200, 2))
        statements.length = 0
        const sort: SortKey[] = [{ column: 'sold_at', direction: 'desc' }]
        await storage.list(catalog, {
          rowFilter: {},
          sort,
          after: ['2026-01-01T08:00:00.000Z', 50],
          limit: 5,
          count: 'none',
        })
        const keysetSql = statements[0]!
        await storage.list(catalog, { rowFilter: {}, filters: [f('price', 'gte', 2)], limit: 5, count: 'exact' })
        const countSql = statements.find((sql) => /count\(\*\)/i.test(sql))!
        if (dialect === 'sqlite') {
          const plan = explainSqlite(database, keysetSql)
          // A nullable descending key needs the expanded form: the index gives the order, nothing is sorted.
          expect(plan).toMatch(/USING INDEX catalog_sold_at__id_idx/)
          expect(plan).not.toMatch(/TEMP B-TREE/)
          expect(explainSqlite(database, countSql)).toMatch(/SEARCH catalog USING COVERING INDEX catalog_price/)
        } else {
          const position = '2026-01-01T08:00:00.000Z'
          const plan = await explainPostgres(database, keysetSql, [position, position, 50, 5])
          expect(plan).toMatch(/Index Scan Backward using catalog_sold_at__id_idx/)
          expect(plan).not.toMatch(/Sort/)
          expect(await explainPostgres(database, countSql, [2])).toMatch(/Index Cond: \(price >= /)
        }
      })

      it('serves equality on a unique string column from its constraint index', async () => {
        const { storage, database, statements } = await openNew(dialect)
        await insertAll(
          storage,
          Array.from({ length: 200 }, (_, index) => ({ title: 't', stock: 1, active: true, sku: `SKU-${index}` })),
        )
        statements.length = 0
        // Limits the results fill: a shorter page would know its total without counting.
        const eq = await storage.list(catalog, { rowFilter: {}, filters: [f('sku', 'eq', 'SKU-7')], limit: 1 })
        expect(eq.rows.map((row) => row.sku)).toEqual(['SKU-7'])
        const found = await storage.list(catalog, {
          rowFilter: {},
          filters: [f('sku', 'in', ['SKU-9', 'sku-10', 'SKU-11'])],
          limit: 2,
        })
        expect(found.rows.map((row) => row.sku)).toEqual(['SKU-9', 'SKU-11'])
        expect(found.total).toBe(2)
        // The count statements: no ORDER BY to make another index attractive.
        const [eqCount, inCount] = statements.filter((sql) => /count\(\*\)/i.test(sql))
        if (dialect === 'sqlite') {
          expect(explainSqlite(database, eqCount!)).toMatch(/SEARCH catalog USING COVERING INDEX \w+ \(sku=\?\)/)
          expect(explainSqlite(database, inCount!)).toMatch(/SEARCH catalog USING COVERING INDEX \w+ \(sku=\?\)/)
        } else {
          expect(await explainPostgres(database, eqCount!, ['SKU-7'])).toMatch(
            /(using|on) catalog_sku_key[\s\S]*Index Cond: \(sku = /,
          )
          expect(await explainPostgres(database, inCount!, ['{SKU-9}'])).toMatch(
            /(using|on) catalog_sku_key[\s\S]*Index Cond: \(sku = ANY/,
          )
        }
      })

      it('uses a row-value range for a NOT NULL key, which the index seeks to', async () => {
        const { storage, database, statements } = await openNew(dialect)
        await insertAll(storage, walkRows(200, 4))
        statements.length = 0
        const sort: SortKey[] = [{ column: 'title', direction: 'asc' }]
        await storage.list(catalog, { rowFilter: {}, sort, after: ['b', 20], limit: 5, count: 'none' })
        const sql = statements[0]!
        expect(sql).toMatch(/\("title"( collate "C")?, "id"\) > \((\$1|\?), (\$2|\?)\)/)
        if (dialect === 'sqlite') {
          expect(explainSqlite(database, sql)).toMatch(/SEARCH catalog USING INDEX catalog_title__id_idx \(title>\?\)/)
        } else {
          const plan = await explainPostgres(database, sql, ['b', 20, 5])
          expect(plan).toMatch(/Index Scan using catalog_title__id_idx[\s\S]*Index Cond: \(ROW\(/)
          expect(plan).not.toMatch(/Sort/)
        }
      })
    })
  })
}

// ---------------------------------------------------------------- introspection helpers

async function readIndexNames(database: TestDatabase): Promise<string[]> {
  return [...(await readIndexDefinitions(database)).keys()]
}

async function readIndexDefinitions(database: TestDatabase): Promise<Map<string, string>> {
  if (database.dialect === 'sqlite') {
    const connection = new Database(database.location, { readonly: true })
    try {
      const rows = connection
        .prepare<[], { name: string; sql: string | null }>("select name, sql from sqlite_master where type = 'index'")
        .all()
      return new Map(rows.map((row) => [row.name, row.sql ?? '']))
    } finally {
      connection.close()
    }
  }
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  try {
    const { rows } = await client.query<{ indexname: string; indexdef: string }>(
      'select indexname, indexdef from pg_indexes where schemaname = $1',
      [database.location],
    )
    return new Map(rows.map((row) => [row.indexname, row.indexdef]))
  } finally {
    await client.end()
  }
}

function explainSqlite(database: TestDatabase, sql: string): string {
  const connection = new Database(database.location, { readonly: true })
  try {
    const statement = connection.prepare(`explain query plan ${sql}`)
    const parameters = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null)
    return (statement.all(parameters) as Array<{ detail: string }>).map((row) => row.detail).join('\n')
  } finally {
    connection.close()
  }
}

/** The generic plan of `sql` with sequential scans (and sorts, unless `sorts`) discouraged: whether an index CAN serve it. */
async function explainPostgres(
  database: TestDatabase,
  sql: string,
  values: unknown[],
  { sorts = false } = {},
): Promise<string> {
  const client = new pg.Client(POSTGRES_URL)
  await client.connect()
  try {
    await client.query('set enable_seqscan = off')
    if (!sorts) await client.query('set enable_sort = off')
    await client.query(`set plan_cache_mode = force_generic_plan`)
    await client.query(`prepare restmint_explain as ${sql}`)
    const placeholders = values.map((value) => (typeof value === 'number' ? String(value) : `'${String(value)}'`))
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain execute restmint_explain(${placeholders.join(', ')})`,
    )
    return rows.map((row) => row['QUERY PLAN']).join('\n')
  } finally {
    await client.end()
  }
}
