import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { UserError } from '../diagnostics/diagnostic.js'
import type { CliIo } from './cli-io.js'
import { ensureFreshOutput } from './ensure-fresh-output.js'
import { loadGeneratedServer } from './load-generated-server.js'

/** Loads `<out>/server.ts` and serves it until SIGINT or SIGTERM. */
export async function runServe(
  options: { out: string; manifest: string; generate?: boolean; db: string; port: string; host: string; seed?: boolean },
  io: CliIo,
): Promise<number> {
  await ensureFreshOutput({ manifest: options.manifest, out: options.out, regenerate: options.generate ?? false }, io)
  const entry = resolve(io.cwd, options.out, 'server.ts')
  if (!existsSync(entry)) {
    throw new UserError(`${options.out}/server.ts not found; run restmint generate --out ${options.out} first`)
  }
  const port = Number(options.port)
  if (!/^\d+$/.test(options.port) || port > 65535) {
    throw new UserError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(options.port)}`)
  }
  const server = await loadGeneratedServer(entry)
  // Errors only, on stderr: a 500 leaves a trace without drowning the terminal in access logs.
  const logger = { level: 'error', stream: process.stderr }
  const app = await startServer(options.db, () => server.buildServer({ db: options.db, seed: options.seed ?? false, logger }))
  const address = await listen(app, port, options.host)
  io.stdout(`restmint: serving ${options.out}/ at ${address} (docs at ${address}/docs), database ${options.db}\n`)
  await new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      io.stdout(`restmint: ${signal} received, closing\n`)
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void app.close().then(done)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  return 0
}

// Errors a user can fix: a database that disagrees with the manifest, a bad --db URL.
const USER_FACING_ERRORS = new Set(['SchemaMismatchError', 'StorageUrlError'])

async function startServer(db: string, build: () => Promise<FastifyInstance>): Promise<FastifyInstance> {
  try {
    return await build()
  } catch (error) {
    if (!(error instanceof Error)) throw error
    if (USER_FACING_ERRORS.has(error.name)) throw new UserError(error.message)
    // Driver and system errors (ECONNREFUSED, SQLITE_NOTADB, EACCES…) concern the database, not restmint.
    if ((error as NodeJS.ErrnoException).code) throw new UserError(`cannot open the database ${db}: ${error.message}`)
    throw error
  }
}

async function listen(app: FastifyInstance, port: number, host: string): Promise<string> {
  try {
    return await app.listen({ port, host })
  } catch (error) {
    await app.close()
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UserError(`port ${port} on ${host} is already in use; pass another with --port`)
    }
    throw error
  }
}
