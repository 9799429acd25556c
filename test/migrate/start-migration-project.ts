import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { expect } from 'vitest'
import { applyMigrations } from '../../runtime/migrations/apply-migrations.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import type { Row, TableDefinition } from '../../runtime/contract/table-definition.js'
import { createMigrationDatabase, type MigrationDatabase } from './migration-database.js'
import { runCli, type CliRun } from '../support/run-cli.js'
import type { Dialect } from '../support/test-postgres.js'
import { loadManifestApi } from './load-manifest-api.js'
import { readSchemaShape } from './read-schema-shape.js'
import { manifestOf } from './storage-of.js'

/** A project whose database follows its manifest through `migrate create` and the applier. */
export interface MigrationProject {
  readonly database: MigrationDatabase
  /** The rows written before the edit, by table, as the storage returned them. */
  readonly seeded: Record<string, Row[]>
  /** Writes `resources` as the manifest and runs `migrate create` with `args`. */
  create(resources: string, ...args: string[]): Promise<CliRun>
  /** Runs create as `create` does, which must fail and write nothing; returns its stderr. */
  refuse(resources: string, ...args: string[]): Promise<string>
  /** Applies the pending migrations as `migrate apply` does; returns what it logged. */
  apply(): Promise<string[]>
  /**
   * Edits the manifest to `resources`, creates the migration (it must
   * succeed) and applies it; checks the database now holds exactly what a
   * fresh database prepared for the new manifest would (read before the
   * server's prepare() could add anything), then serves the new manifest on it.
   */
  migrate(resources: string, ...args: string[]): Promise<ServedProject>
}

export interface ServedProject {
  readonly created: CliRun
  /** What applying logged. */
  readonly applied: string[]
  /** Sends a request to the server; fails the test on a 5xx. */
  send(options: InjectOptions): Promise<{ status: number; body: any }>
  /** Every record of a collection, in id order, read over HTTP. */
  list(collection: string): Promise<Row[]>
}

const opened: (() => Promise<void>)[] = []

/** Closes every server and drops every database the projects opened; call it after each test. */
export async function disposeMigrationProjects(): Promise<void> {
  for (const dispose of opened.splice(0).reverse()) await dispose()
}

/**
 * A project at `resources` (its first migration created and applied) holding
 * `rows` by table, written through the storage, and `deleted` rows deleted
 * after them (ids by table).
 */
export async function startMigrationProject(
  dialect: Dialect,
  resources: string,
  rows: Record<string, Row[]>,
  deleted: Record<string, number[]> = {},
): Promise<MigrationProject> {
  const database = openDatabase(dialect)
  const migrations = join(database.directory, 'migrations')
  const create = async (text: string, ...args: string[]) => {
    writeFileSync(join(database.directory, 'resources.yaml'), manifestOf(text))
    return runCli(database.directory, 'migrate', 'create', ...args)
  }
  const apply = async () => {
    const lines: string[] = []
    await applyMigrations({
      url: database.url,
      schema: database.schema,
      directory: migrations,
      log: (line) => lines.push(line),
    })
    return lines
  }

  const first = await create(resources)
  expect(first.stderr).toBe('')
  expect(first.stdout).toMatch(/^Created migrations\/0001_init\//)
  await apply()
  const { tables } = await loadManifestApi(manifestOf(resources))
  // The storage's prepare() refuses a database that differs from the manifest: the first migration made it right.
  const storage = createStorage(database.url, tables, { schema: database.schema })
  const seeded: Record<string, Row[]> = {}
  try {
    await storage.prepare()
    for (const [name, tableRows] of Object.entries(rows)) {
      const table = tables.find((candidate) => candidate.name === name)!
      seeded[name] = []
      for (const row of tableRows) seeded[name].push(await storage.insert(table, row))
    }
    for (const [name, ids] of Object.entries(deleted)) {
      const table = tables.find((candidate) => candidate.name === name)!
      for (const id of ids) await storage.delete(table, id)
    }
  } finally {
    await storage.close()
  }

  return {
    database,
    seeded,
    create,
    async refuse(text, ...args) {
      const names = readdirSync(migrations)
      const refused = await create(text, ...args)
      expect(refused.exitCode, refused.stdout).toBe(1)
      expect(readdirSync(migrations), 'a refused create writes nothing').toEqual(names)
      return refused.stderr
    },
    apply,
    async migrate(text, ...args) {
      const created = await create(text, ...args)
      expect(created.exitCode, created.stderr).toBe(0)
      expect(created.stdout).toMatch(/^Created migrations\/0002_/)
      const applied = await apply()
      const api = await loadManifestApi(manifestOf(text))
      const [migrated, prepared] = await Promise.all([
        readSchemaShape(database),
        readPreparedShape(dialect, api.tables),
      ])
      expect(migrated).toEqual(prepared)
      const app = await api.buildServer({ db: database.url, schema: database.schema, docs: false })
      opened.push(() => app.close())
      return served(app, created, applied)
    },
  }
}

function openDatabase(dialect: Dialect): MigrationDatabase {
  const database = createMigrationDatabase(dialect)
  opened.push(() => database.dispose())
  return database
}

/** The shape of a fresh database that prepare() made for `tables`. */
async function readPreparedShape(dialect: Dialect, tables: readonly TableDefinition[]): Promise<string[]> {
  const reference = openDatabase(dialect)
  const storage = createStorage(reference.url, tables, { schema: reference.schema })
  try {
    await storage.prepare()
  } finally {
    await storage.close()
  }
  return readSchemaShape(reference)
}

function served(app: FastifyInstance, created: CliRun, applied: string[]): ServedProject {
  const send = async (options: InjectOptions) => {
    const response = await app.inject(options)
    expect(response.statusCode, `${options.method} ${options.url}: ${response.body}`).toBeLessThan(500)
    return { status: response.statusCode, body: response.body === '' ? undefined : response.json() }
  }
  return {
    created,
    applied,
    send,
    async list(collection) {
      const { status, body } = await send({ method: 'GET', url: `/v1/${collection}?per_page=100&sort=id` })
      expect(status).toBe(200)
      return body.data
    },
  }
}
