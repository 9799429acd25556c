/**
 * One server of the query benchmark, run as its own process so the load
 * generator never shares its event loop:
 *
 *   node --import tsx bench/query-server.ts generated|generated-without-auth|generated-with-hooks|generated-with-empty-after-hook|hand-written|hand-written-kysely <database URL> [postgres schema]
 *   node --import tsx bench/query-server.ts floor <JSON file of { path: body }>
 *
 * Listens on a free port of 127.0.0.1, prints `listening <port>`, answers the
 * IPC messages `cpu` with its process.cpuUsage() and `rss` with its resident
 * set size, and exits cleanly on SIGTERM (so `--cpu-prof` gets to write its profile).
 */
import { readFileSync } from 'node:fs'
import Fastify, { type FastifyInstance } from 'fastify'
import { buildApiServer, createStorage, type ServerOptions, type Storage } from 'restmint/runtime'
import { allTables } from '../generated/schema.js'
import { api } from '../generated/server.js'
import { BENCH_CURSOR_SECRET, buildHandWrittenServer } from './hand-written-server.js'
import { BENCH_JWT_SECRET } from './query-harness.js'
import { benchApp, emptyAfterCreateApp } from './bench-app.js'

const [kind, url, schema] = process.argv.slice(2)
const KINDS = [
  'generated',
  'generated-without-auth',
  'generated-with-hooks',
  'generated-with-empty-after-hook',
  'hand-written',
  'hand-written-kysely',
  'floor',
]
if (kind === undefined || !KINDS.includes(kind) || url === undefined) {
  throw new Error(
    `usage: query-server.ts ${KINDS.filter((known) => known !== 'floor').join('|')} <database URL> ` +
      '[postgres schema], or floor <JSON file of { path: body }>',
  )
}
// f: authors' creates through bench-app.ts's two hooks, or through its empty afterCreate alone (f's floor);
// every other kind serves no app module.
// The example's custom operations are left out: their handlers are the example's own app module, which the
// benchmark does not load (its computed fields would make the bodies differ from the hand-written server's).
const withoutOperations = { ...api, versions: api.versions.map(({ operations: _, ...version }) => version) }
const served =
  kind === 'generated-without-auth'
    ? { ...withoutOperations, auth: undefined }
    : kind === 'generated-with-hooks'
      ? { ...withoutOperations, hooks: { authors: ['beforeCreate', 'afterCreate'] as const }, computed: {} }
      : kind === 'generated-with-empty-after-hook'
        ? { ...withoutOperations, hooks: { authors: ['afterCreate'] as const }, computed: {} }
        : withoutOperations
const appModule =
  kind === 'generated-with-hooks'
    ? benchApp
    : kind === 'generated-with-empty-after-hook'
      ? emptyAfterCreateApp
      : undefined
// The example's JWT_SECRET: the benchmark signs its token with the same.
const buildServer = (options: ServerOptions) =>
  buildApiServer(served, {
    ...options,
    env: { JWT_SECRET: BENCH_JWT_SECRET },
    ...(appModule ? { app: appModule } : {}),
  })
const postgres = /^postgres(ql)?:\/\//.test(url)
if (postgres && schema === undefined && kind !== 'floor') throw new Error('a PostgreSQL URL needs a schema')

let storage: Storage | undefined
let app: FastifyInstance
if (kind === 'floor') {
  app = buildFloorServer(url)
} else if (!kind.startsWith('hand-written')) {
  if (postgres) {
    // buildServer takes no schema; a storage opened with one is how an app picks its schema.
    storage = createStorage(url, allTables, { schema: schema! })
    app = await buildServer({ storage, docs: false, cursorSecret: BENCH_CURSOR_SECRET })
  } else {
    app = await buildServer({ db: url, docs: false, cursorSecret: BENCH_CURSOR_SECRET })
  }
} else {
  app = await buildHandWrittenServer(
    postgres ? { kind: 'postgres', url, schema: schema! } : { kind: 'sqlite', file: url.slice('sqlite:'.length) },
    kind === 'hand-written-kysely' ? 'kysely' : 'statements',
  )
}
await app.listen({ host: '127.0.0.1', port: 0 })
const address = app.server.address()
if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port')
process.stdout.write(`listening ${address.port}\n`)

// The benchmark asks for the process's CPU time around each run.
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() })
  if (message === 'rss') process.send?.({ rss: process.memoryUsage.rss() })
})

process.once('SIGTERM', () => {
  void (async () => {
    await app.close()
    await storage?.close()
    process.exit(0)
  })()
})

/** One bare route answering every path of `file` with its bytes, and nothing else done per request. */
function buildFloorServer(file: string): FastifyInstance {
  const bodies = new Map(
    Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([path, body]) => [
      path,
      Buffer.from(body),
    ]),
  )
  const floor = Fastify({ logger: false })
  floor.get('*', (request, reply) => {
    const body = bodies.get(request.url)
    if (body === undefined) return reply.code(404).send()
    return reply.header('content-type', 'application/json; charset=utf-8').send(body)
  })
  return floor
}
