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
 * Made for every hook call, so it costs next to nothing until used: a proxy
 * whose resources are made when first read, then kept. It still reads as a
 * plain object of every resource: `Object.keys(db)`, `'orders' in db` and a
 * spread copy `{ ...db }` see them all. Read-only: assigning to it throws.
 */
export function createAppDb(storage: Storage, resources: ReadonlyMap<string, NewestResource>): AppDb<any> {
  let handler = handlers.get(resources)
  if (handler === undefined) handlers.set(resources, (handler = lazyResources(resources)))
  const made: MadeResources = { [STORAGE]: storage }
  return new Proxy(made, handler) as unknown as AppDb<any>
}

/** The storage an AppDb works on, under a key no resource name can take. */
const STORAGE = Symbol('storage')

/** What a proxy of createAppDb holds: its storage, and the resources made so far. */
interface MadeResources {
  readonly [STORAGE]: Storage
  [name: string]: ResourceDb<ResourceShape>
}

const handlers = new WeakMap<ReadonlyMap<string, NewestResource>, ProxyHandler<MadeResources>>()

/** The proxy handler of one API's `db`s: a resource made on first read, the object read-only. */
function lazyResources(resources: ReadonlyMap<string, NewestResource>): ProxyHandler<MadeResources> {
  const names = [...resources.keys()]
  const resourceOf = (made: MadeResources, name: string | symbol): ResourceDb<ResourceShape> | undefined => {
    const resource = typeof name === 'string' ? resources.get(name) : undefined
    return resource && (made[name as string] ??= resourceDb(made[STORAGE], resource))
  }
  return {
    // Anything else reads as on a plain object (toString, hasOwnProperty…).
    get: (made, name, receiver) => resourceOf(made, name) ?? Reflect.get(made, name, receiver),
    has: (_, name) => typeof name === 'string' && resources.has(name),
    ownKeys: () => [...names],
    getOwnPropertyDescriptor: (made, name) => {
      const value = resourceOf(made, name)
      return value && { value, enumerable: true, configurable: true, writable: false }
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  }
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
    read: async (id, options = {}) => {
      const row = await (options.forUpdate ? storage.findForUpdate(table, id) : storage.find(table, id))
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
