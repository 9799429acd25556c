import { createInterface } from 'node:readline'
import { allTables } from '../fixtures/shop-api/generated/schema.js'
import { createStorage } from '../../runtime/storage/create-storage.js'

/**
 * One instance starting up, as its own process (see prepare-concurrency.test.ts):
 * `node prepare-instance.js <database url>`, compiled, opens the
 * storage, prints `ready`, waits for a `go` line on stdin so that every
 * instance prepares at the same moment, then prepares and prints `up`, or
 * prints the error to stderr and exits 1.
 */
const url = process.argv[2]
if (url === undefined) throw new Error('usage: prepare-instance.ts <database url>')
const storage = createStorage(url, allTables)
const lines = createInterface({ input: process.stdin })
console.log('ready')
for await (const line of lines) {
  if (line !== 'go') continue
  try {
    await storage.prepare()
    console.log('up')
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  } finally {
    await storage.close()
    lines.close()
  }
}
