import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { createStorage } from '../../runtime/storage/create-storage.js'
import { createTestDatabases, DIALECTS, POSTGRES_URL, type TestDatabase } from './storage-fixtures.js'

/**
 * Instances starting together on one empty database (issue 6, item 7): every
 * prepare() must succeed, one after another. SQLite instances are processes:
 * better-sqlite3 blocks its thread while it waits for a lock, so two storages
 * of one process cannot share a file's write lock (open one storage per file
 * per process). PostgreSQL ones are storages of this process, whose separate
 * pools the database tells apart like processes, and which start far faster.
 */

/** Few: each process spends a good part of a second loading the runtime. */
const PROCESSES = 3
const STORAGES = 8
// Compiled for this run with the test CLI (test/support/cli-global-setup.ts): no TypeScript loader to start.
const INSTANCE_SCRIPT = join(inject('testBuildDirectory'), 'test', 'storage', 'prepare-instance.js')

const databases = createTestDatabases()
afterEach(() => databases.closeOpened())
afterAll(() => databases.dropAll())

interface Instance {
  readonly child: ChildProcess
  readonly output: { stdout: string; stderr: string }
}

/** Starts an instance process on an SQLite file and resolves once it is ready to prepare. */
async function startInstance(database: TestDatabase): Promise<Instance> {
  const args = [INSTANCE_SCRIPT, `sqlite:${database.location}`]
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  const output = { stdout: '', stderr: '' }
  child.stderr!.on('data', (chunk: Buffer) => void (output.stderr += chunk))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output.stdout += chunk
      if (output.stdout.includes('ready\n')) resolve()
    })
    child.once('exit', () => reject(new Error(`instance exited before it was ready: ${output.stderr}`)))
  })
  return { child, output }
}

/** Every storage can use every table, and one more prepare() finds nothing to change. */
async function expectPrepared(database: TestDatabase): Promise<void> {
  const storage = database.open(allTables)
  await storage.prepare()
  for (const table of allTables)
    expect(await storage.list(table, { rowFilter: {}, limit: 1 })).toEqual({ rows: [], total: 0, count: 'exact' })
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: instances starting together on one empty database`, () => {
    it.runIf(dialect === 'sqlite')(`brings up all of ${PROCESSES} processes preparing one file at once`, async () => {
      const database = databases.newDatabase(dialect)
      const instances = await Promise.all(Array.from({ length: PROCESSES }, () => startInstance(database)))
      const exits = instances.map(({ child }) => once(child, 'exit'))
      for (const { child } of instances) child.stdin!.write('go\n')
      const codes = (await Promise.all(exits)).map(([code]) => code)
      const stderr = instances.map(({ output }) => output.stderr).join('\n')
      expect(codes, stderr).toEqual(instances.map(() => 0))
      expect(instances.map(({ output }) => output.stdout)).toEqual(instances.map(() => 'ready\nup\n'))
      await expectPrepared(database)
    })

    // Each storage has its own pool, so to the database these are separate instances.
    it.runIf(dialect === 'postgres')(`brings up all of ${STORAGES} storages preparing one schema at once`, async () => {
      const database = databases.newDatabase(dialect)
      const storages = Array.from({ length: STORAGES }, () =>
        createStorage(POSTGRES_URL, allTables, { schema: database.location }),
      )
      databases.opened.push(...storages)
      const results = await Promise.allSettled(storages.map((storage) => storage.prepare()))
      expect(results.filter((result) => result.status === 'rejected')).toEqual([])
      await expectPrepared(database)
    })
  })
}
