import type { RowFilter, Storage } from '../storage/storage.js'
import type { RelationDefinition, Row, TableDefinition } from '../contract/table-definition.js'
import type { InvalidParam } from '../problems/problem-error.js'
import type { QueryRules } from '../contract/query-rules.js'
import type { VersionTranslation } from '../contract/version-translation.js'

/** Include paths as a tree: `items.product` → { items: { product: {} } }. */
interface IncludeTree {
  readonly [relation: string]: IncludeTree
}

/**
 * Checks `?include=` against the whitelist and the limits; problems go into
 * `errors`. Returns the requested paths.
 */
export function parseInclude(
  raw: string | undefined,
  rules: QueryRules,
  limits: { readonly includeMax: number; readonly includeDepth: number },
  errors: InvalidParam[],
): string[] {
  if (raw === undefined) return []
  const paths = raw.split(',')
  const allowed = rules.includes.length > 0 ? rules.includes.join(', ') : 'none'
  const fail = (detail: string): string[] => {
    errors.push({ in: 'query', name: 'include', detail: `${detail}; allowed paths: ${allowed}` })
    return []
  }
  if (paths.length > limits.includeMax)
    return fail(`names ${paths.length} paths, more than the limit of ${limits.includeMax}`)
  for (const path of paths) {
    if (path.split('.').length > limits.includeDepth) {
      return fail(`${JSON.stringify(path)} is deeper than the limit of ${limits.includeDepth} levels`)
    }
    if (!rules.includes.includes(path)) return fail(`${JSON.stringify(path)} cannot be included`)
  }
  if (new Set(paths).size !== paths.length) return fail('names a path twice')
  return paths
}

/** One embedded array cut at `limits.include_items_max` (or its relation's `max_items`): where it is, and where the rest is. */
export interface IncludeTruncation {
  /** JSON Pointer (RFC 6901) to the cut array in the response body: `/data/3/comments`. */
  readonly pointer: string
  /** The include path that embedded it: `comments`, `posts.comments`. */
  readonly relation: string
  /** How many records the array holds: the limit. */
  readonly returned: number
  /** The page of the related collection after the embedded records; null when no route lists them. */
  readonly next: string | null
}

export interface IncludeOptions {
  /** JSON Pointer of each of `rows` in the response body: `/data/0`, `/data/1`…, or `/data` for one record. */
  readonly pointers: readonly string[]
  /** Records one has-many relation embeds per row, unless it sets its own `maxItems`. */
  readonly itemsMax: number
  /** The version prefix links start with: `/v1`. */
  readonly prefix: string
  /** How the route's version names what was embedded and cut (planIncludeNames). */
  readonly names: IncludeNames
  /** The rows of a table the caller may read (its read rule), or null for none: nothing else is embedded. Default: all. */
  readonly readableRowsOf?: (table: string) => RowFilter | null
}

/** An API version's names for the members includes embed and what `meta.truncated` reports (`paths` are include paths). */
export interface IncludeNames {
  /** The version's include path of a storage one. */
  pathOf(storagePath: string): string
  /** The version's collection of what a has-many include path embeds for one record (`{id}`); null when none. */
  listPathOf(path: string): string | null
}

/**
 * A route's include names, worked out once when it is registered from the
 * include paths its version allows: each storage path, and each of its
 * prefixes, is the version's path's prefix of as many segments.
 */
export function planIncludeNames(translation: VersionTranslation, includes: readonly string[]): IncludeNames {
  const byStoragePath = new Map<string, string>()
  for (const path of includes) {
    const segments = path.split('.')
    const storageSegments = translation.includeOf(path).split('.')
    storageSegments.forEach((_, index) => {
      byStoragePath.set(storageSegments.slice(0, index + 1).join('.'), segments.slice(0, index + 1).join('.'))
    })
  }
  return {
    pathOf: (storagePath) => byStoragePath.get(storagePath) ?? storagePath,
    listPathOf: translation.listPathOf,
  }
}

/** Where each loaded row appears in the response body (a belongs-to target may appear under several rows). */
type Placements = Map<Row, string[]>

/**
 * Embeds the included relations into `rows`, each as a member named after the
 * relation (an object or null for belongs-to, an array for has-many). One
 * statement per relation path, whatever the number of rows: never N+1.
 * `items.product` embeds `items` too, to carry the products. A has-many
 * embeds at most its `maxItems`, else `itemsMax`, records per row (the first
 * by id); every array cut short is returned, for the response's `meta.truncated`.
 * Only rows the caller may read are embedded (the target's read rule): a
 * belongs-to the caller may not read is null, a has-many lists only the readable.
 */
export async function includeRelations(
  storage: Storage,
  tables: ReadonlyMap<string, TableDefinition>,
  table: TableDefinition,
  rows: Row[],
  paths: readonly string[],
  options: IncludeOptions,
): Promise<IncludeTruncation[]> {
  if (paths.length === 0) return []
  const placements: Placements = new Map(rows.map((row, index) => [row, [options.pointers[index]!]]))
  const truncations: IncludeTruncation[] = []
  await embedTree({ storage, tables, options, placements, truncations }, table, rows, buildTree(paths), '')
  return truncations
}

function buildTree(paths: readonly string[]): IncludeTree {
  const tree: Record<string, Record<string, unknown>> = {}
  for (const path of paths) {
    let node = tree
    for (const segment of path.split('.')) node = (node[segment] ??= {}) as Record<string, Record<string, unknown>>
  }
  return tree as IncludeTree
}

/** What every level of one include shares. */
interface EmbedContext {
  readonly storage: Storage
  readonly tables: ReadonlyMap<string, TableDefinition>
  readonly options: IncludeOptions
  readonly placements: Placements
  readonly truncations: IncludeTruncation[]
}

async function embedTree(
  context: EmbedContext,
  table: TableDefinition,
  rows: Row[],
  tree: IncludeTree,
  parentPath: string,
): Promise<void> {
  for (const [name, subtree] of Object.entries(tree)) {
    const relation = table.relations?.find((candidate) => candidate.name === name)
    const target = relation && context.tables.get(relation.table)
    if (!relation || !target) throw new Error(`internal error: ${table.name} has no relation ${name}`)
    const path = parentPath === '' ? name : `${parentPath}.${name}`
    const deeper = Object.keys(subtree).length > 0
    const related = await embedRelation(context, target, relation, rows, path, deeper)
    if (deeper) await embedTree(context, target, related, subtree, path)
  }
}

/**
 * Embeds one relation; returns the related rows embedded, for deeper paths
 * (a has-many returns none when there are none). Where each embedded row
 * appears is recorded only when `deeper` paths embed into it: only they can
 * report a cut array under it.
 */
async function embedRelation(
  context: EmbedContext,
  target: TableDefinition,
  relation: RelationDefinition,
  rows: Row[],
  path: string,
  deeper: boolean,
): Promise<Row[]> {
  const { storage, placements } = context
  const member = `/${memberName(context, path)}`
  // Only deeper paths need to know where each related row appears (and the rows themselves).
  const placeUnder = deeper
    ? (row: Row, suffix: string, related: Row): void => {
        const at = (placements.get(row) ?? []).map((pointer) => `${pointer}${suffix}`)
        const known = placements.get(related)
        if (known) known.push(...at)
        else placements.set(related, at)
      }
    : undefined
  const { readableRowsOf } = context.options
  const readable = readableRowsOf ? readableRowsOf(target.name) : {}
  if (relation.kind === 'belongs-to') {
    const ids = readable === null ? [] : distinctIds(rows.map((row) => row[relation.column]))
    const related = await storage.findWhereIn(target, 'id', ids, undefined, readable ?? {})
    const byId = new Map(related.map((row) => [row.id, row]))
    for (const row of rows) {
      const embedded = byId.get(row[relation.column]!) ?? null
      ;(row as Record<string, unknown>)[relation.name] = embedded
      if (embedded) placeUnder?.(row, member, embedded)
    }
    return related
  }
  const itemsMax = relation.maxItems ?? context.options.itemsMax
  const ids = readable === null ? [] : distinctIds(rows.map((row) => row.id))
  // One more than the limit tells which arrays were cut.
  const byParent =
    relation.through === undefined
      ? groupBy(await storage.findWhereIn(target, relation.column, ids, itemsMax + 1, readable ?? {}), (child) =>
          Number(child[relation.column]),
        )
      : await findLinkedRows(context, target, relation, relation.through, ids, itemsMax + 1, readable ?? {})
  const embeddedRows: Row[] = []
  for (const row of rows) {
    const children = byParent.get(row.id as number) ?? []
    const cut = children.length > itemsMax
    const embedded = cut ? children.slice(0, itemsMax) : children
    ;(row as Record<string, unknown>)[relation.name] = embedded
    if (placeUnder) {
      embedded.forEach((child, index) => placeUnder(row, `${member}/${index}`, child))
      embeddedRows.push(...embedded)
    }
    if (cut) reportCut(context, row, path, itemsMax)
  }
  return embeddedRows
}

/**
 * A many-to-many's target rows by the id each is linked to, in one
 * statement, through the links the caller may read (the join's read rule).
 */
async function findLinkedRows(
  context: EmbedContext,
  target: TableDefinition,
  relation: RelationDefinition,
  through: NonNullable<RelationDefinition['through']>,
  ids: readonly number[],
  perValue: number,
  readable: RowFilter,
): Promise<Map<number, Row[]>> {
  const { readableRowsOf } = context.options
  const readableLinks = readableRowsOf ? readableRowsOf(through.table) : {}
  if (readableLinks === null) return new Map()
  const linked = await context.storage.findLinked(
    target,
    {
      table: through.table,
      column: relation.column,
      targetColumn: through.targetColumn,
      ...(context.tables.get(through.table)?.softDelete === true ? { live: true as const } : {}),
      ...(Object.keys(readableLinks).length > 0 ? { rowFilter: readableLinks } : {}),
    },
    ids,
    perValue,
    readable,
  )
  const byOwner = new Map<number, Row[]>()
  for (const { owner, row } of linked) {
    const siblings = byOwner.get(owner)
    if (siblings) siblings.push(row)
    else byOwner.set(owner, [row])
  }
  return byOwner
}

function groupBy(rows: readonly Row[], keyOf: (row: Row) => number): Map<number, Row[]> {
  const groups = new Map<number, Row[]>()
  for (const row of rows) {
    const key = keyOf(row)
    const siblings = groups.get(key)
    if (siblings) siblings.push(row)
    else groups.set(key, [row])
  }
  return groups
}

/** One entry per place the cut array appears, each linking to the page after the embedded records. */
function reportCut(context: EmbedContext, row: Row, path: string, itemsMax: number): void {
  const { prefix, names } = context.options
  const versionPath = names.pathOf(path)
  const listPath = names.listPathOf(versionPath)
  let next: string | null = null
  if (listPath !== null) {
    const collection = `${prefix}${listPath.replace('{id}', String(row.id))}`
    next = `${collection}${collection.includes('?') ? '&' : '?'}page=2&per_page=${itemsMax}`
  }
  const member = memberName(context, path)
  for (const pointer of context.placements.get(row) ?? []) {
    context.truncations.push({ pointer: `${pointer}/${member}`, relation: versionPath, returned: itemsMax, next })
  }
}

/** The member the relation at storage include path `path` embeds as, in the response's version. */
function memberName(context: EmbedContext, path: string): string {
  const named = context.options.names.pathOf(path)
  return named.slice(named.lastIndexOf('.') + 1)
}

function distinctIds(values: readonly unknown[]): number[] {
  return [...new Set(values.filter((value): value is number => typeof value === 'number'))]
}
