import type { ResourceBodies } from '../contract/resource-routes.js'
import type { Row, TableDefinition } from '../contract/table-definition.js'
import type { VersionTranslation } from '../contract/version-translation.js'
import type { Storage } from '../storage/storage.js'
import type { AppDb, ResourceDb, ResourceShape } from './define-app.js'

/** How the newest version names and shapes one resource: what hooks and `db` speak. */
export interface NewestResource {
  readonly table: TableDefinition
  readonly translation: VersionTranslation
}

/** A resource as the newest version serves it, with its top-level body validators (hooks' bodies are checked again). */
export interface NewestRoutes extends NewestResource {
  /** The newest version's name of the resource: the key of its hooks, `compute` and `db`. */
  readonly name: string
  readonly bodies: ResourceBodies
}

/** What `db.<resource>.list()` returns at most when no `limit` is given. */
const DEFAULT_LIST_LIMIT = 100

/**
 * `db` for the app module: CRUD on every resource of the newest version, in
 * its names, over `storage` (a transaction's, in hooks). Server code: no
 * access rules, no body validation beyond the storage's own (types,
 * constraints, references, restrict and cascade), defaults as a create over
 * HTTP takes them.
 *
 * Made for every hook call, so it costs next to nothing until used: each
 * resource's methods are made when the hook first reads `db.<resource>`, then
 * kept. The getters are its own properties (descriptors made once per API),
 * not a prototype's: a spread copy of it, `{ ...db }`, has every resource.
 */
export function createAppDb(storage: Storage, resources: ReadonlyMap<string, NewestResource>): AppDb<any> {
  let lazy = descriptors.get(resources)
  if (lazy === undefined) descriptors.set(resources, (lazy = lazyResources(resources)))
  const db = Object.create(Object.prototype, lazy) as Record<typeof STORAGE, Storage>
  db[STORAGE] = storage
  return db as unknown as AppDb<any>
}

/** The storage an AppDb works on, under a key no resource name can take. */
const STORAGE = Symbol('storage')

const descriptors = new WeakMap<ReadonlyMap<string, NewestResource>, PropertyDescriptorMap>()

/** A getter per resource that makes its ResourceDb over the AppDb's storage and keeps it in its place. */
function lazyResources(resources: ReadonlyMap<string, NewestResource>): PropertyDescriptorMap {
  const lazy: PropertyDescriptorMap = {}
  for (const [name, resource] of resources) {
    lazy[name] = {
      enumerable: true,
      configurable: true,
      get(this: Record<typeof STORAGE, Storage>) {
        const value = resourceDb(this[STORAGE], resource)
        Object.defineProperty(this, name, { value, enumerable: true })
        return value
      },
    }
  }
  return lazy
}

function resourceDb(storage: Storage, { table, translation }: NewestResource): ResourceDb<ResourceShape> {
  const toRecord = (row: Row): object => translation.rowToVersion(row)
  return {
    create: async (body) => {
      const values: Row = {}
      for (const column of translation.view.columns) {
        if (!column.readOnly && column.owner === undefined) values[column.name] = column.default
      }
      Object.assign(values, body)
      return toRecord(await storage.insert(table, translation.bodyToStorage(values, true)))
    },
    read: async (id) => {
      const row = await storage.find(table, id)
      return row === undefined ? null : toRecord(row)
    },
    list: async (options = {}) => {
      const rowFilter: Record<string, string | number | boolean> = {}
      for (const [field, value] of Object.entries(options.where ?? {})) {
        rowFilter[translation.columnOf(field)] = value as string | number | boolean
      }
      const { rows } = await storage.list(table, {
        rowFilter,
        limit: options.limit ?? DEFAULT_LIST_LIMIT,
        count: 'none',
      })
      return rows.map(toRecord)
    },
    update: async (id, body) => {
      const row = await storage.update(table, id, translation.bodyToStorage(body as Row, false))
      return row === undefined ? null : toRecord(row)
    },
    delete: (id) => storage.delete(table, id),
  }
}
