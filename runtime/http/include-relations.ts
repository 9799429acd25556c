import type { Storage } from '../storage/storage.js'
import type { RelationDefinition, Row, TableDefinition } from '../table-definition.js'
import type { InvalidParam } from './problem-error.js'
import type { QueryRules } from './query-rules.js'

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
  if (paths.length > limits.includeMax) return fail(`names ${paths.length} paths, more than the limit of ${limits.includeMax}`)
  for (const path of paths) {
    if (path.split('.').length > limits.includeDepth) {
      return fail(`${JSON.stringify(path)} is deeper than the limit of ${limits.includeDepth} levels`)
    }
    if (!rules.includes.includes(path)) return fail(`${JSON.stringify(path)} cannot be included`)
  }
  if (new Set(paths).size !== paths.length) return fail('names a path twice')
  return paths
}

/**
 * Embeds the included relations into `rows`, each as a member named after the
 * relation (an object or null for belongs-to, an array for has-many). One
 * statement per relation path, whatever the number of rows: never N+1.
 * `items.product` embeds `items` too, to carry the products.
 */
export async function includeRelations(
  storage: Storage,
  tables: ReadonlyMap<string, TableDefinition>,
  table: TableDefinition,
  rows: Row[],
  paths: readonly string[],
): Promise<void> {
  await embedTree(storage, tables, table, rows, buildTree(paths))
}

function buildTree(paths: readonly string[]): IncludeTree {
  const tree: Record<string, Record<string, unknown>> = {}
  for (const path of paths) {
    let node = tree
    for (const segment of path.split('.')) node = (node[segment] ??= {}) as Record<string, Record<string, unknown>>
  }
  return tree as IncludeTree
}

async function embedTree(
  storage: Storage,
  tables: ReadonlyMap<string, TableDefinition>,
  table: TableDefinition,
  rows: Row[],
  tree: IncludeTree,
): Promise<void> {
  for (const [name, subtree] of Object.entries(tree)) {
    const relation = table.relations?.find((candidate) => candidate.name === name)
    const target = relation && tables.get(relation.table)
    if (!relation || !target) throw new Error(`internal error: ${table.name} has no relation ${name}`)
    const related = await embedRelation(storage, target, relation, rows)
    if (Object.keys(subtree).length > 0) await embedTree(storage, tables, target, related, subtree)
  }
}

/** Embeds one relation; returns the related rows loaded, for deeper paths. */
async function embedRelation(
  storage: Storage,
  target: TableDefinition,
  relation: RelationDefinition,
  rows: Row[],
): Promise<Row[]> {
  if (relation.kind === 'belongs-to') {
    const ids = distinctIds(rows.map((row) => row[relation.column]))
    const related = await storage.findWhereIn(target, 'id', ids)
    const byId = new Map(related.map((row) => [row.id, row]))
    for (const row of rows) (row as Record<string, unknown>)[relation.name] = byId.get(row[relation.column]!) ?? null
    return related
  }
  const related = await storage.findWhereIn(target, relation.column, distinctIds(rows.map((row) => row.id)))
  const byParent = new Map<unknown, Row[]>()
  for (const child of related) {
    const siblings = byParent.get(child[relation.column])
    if (siblings) siblings.push(child)
    else byParent.set(child[relation.column], [child])
  }
  for (const row of rows) (row as Record<string, unknown>)[relation.name] = byParent.get(row.id) ?? []
  return related
}

function distinctIds(values: readonly unknown[]): number[] {
  return [...new Set(values.filter((value): value is number => typeof value === 'number'))]
}
