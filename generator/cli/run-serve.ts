import { createInterface } from 'node:readline'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { createContentCache, findCacheDirectory } from '../emit/content-cache.js'
import type { CliIo } from './cli-io.js'
import { describeListenFailure } from './describe-listen-failure.js'
import { withDevelopmentSecrets } from './development-secrets.js'
import { ensureFreshOutput } from './ensure-fresh-output.js'
import { loadGeneratedServer } from './load-generated-server.js'
import { loadProject } from '../load-project.js'
import { reportAppModule } from './report-app-module.js'
import { requireSchemaName } from './migration-options.js'
import { withDatabaseErrors } from './with-database-errors.js'

/** Loads `<out>/server.ts` and serves it until SIGINT or SIGTERM. */
export async function runServe(
  options: {
    out: string
    manifest: string
    generate?: boolean
    db: string
    schema: string
    port: string
    host: string
    seed?: boolean
    migrations: string
    migrate?: boolean
    shutdownTimeout?: string
    poolSize?: string
    poolTimeout?: string
    /** Set by restmint dev, which checked the app module against the manifest just before starting serve. */
    appModuleChecked?: boolean
    /** Set by restmint dev: listen only once a line arrives on stdin (the previous server has let go of the port). */
    listenWhenTold?: boolean
  },
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
  requireSchemaName(options.schema)
  const shutdownTimeoutSeconds = readNumber('--shutdown-timeout (SHUTDOWN_TIMEOUT)', options.shutdownTimeout, {
    min: 0,
    fractions: true,
  })
  const poolSize = readNumber('--pool-size (DATABASE_POOL_SIZE)', options.poolSize, { min: 1 })
  const poolTimeoutMs = readNumber('--pool-timeout (DATABASE_POOL_TIMEOUT)', options.poolTimeout, { min: 0 })
  const server = await loadGeneratedServer(entry, createContentCache(findCacheDirectory(io.cwd)))
  // The module server.ts imports must export what the manifest declares; said with positions here.
  const checkAppModule = server.appModule !== undefined && options.appModuleChecked !== true
  if (checkAppModule && existsSync(resolve(io.cwd, options.manifest))) {
    const project = await loadProject(io.cwd, options.manifest)
    if ((await reportAppModule(project, io, { module: server.appModule })) !== 0) {
      throw new UserError(
        `${options.out}/server.ts's app module disagrees with ${options.manifest} (see above); nothing is served`,
      )
    }
  }
  // With migrations, they alone make the schema: the server creates nothing, and refuses what they do not explain.
  // A memory database starts empty every time, and prepare() creates the manifest's tables: nothing to migrate.
  const managedByMigrations = options.db !== 'sqlite::memory:' && existsSync(resolve(io.cwd, options.migrations))
  if (managedByMigrations) {
    await (await import('./ensure-migrations-applied.js')).ensureMigrationsApplied(options, server.api.tables, io)
  }
  const logger = serveLogger((line) => process.stderr.write(line))
  const { db, schema } = options
  const { env, notes } = withDevelopmentSecrets(server.api.auth?.schemes ?? [], process.env, io.cwd)
  const app = await withDatabaseErrors(db, () =>
    server.buildServer({
      db,
      schema,
      seed: options.seed ?? false,
      logger,
      createMissing: !managedByMigrations,
      env,
      pool: { size: poolSize, timeoutMs: poolTimeoutMs },
      ...(shutdownTimeoutSeconds !== undefined ? { shutdownTimeoutMs: shutdownTimeoutSeconds * 1000 } : {}),
    }),
  )
  const dev = options.listenWhenTold === true ? followDev() : undefined
  if (dev !== undefined && !(await dev.told)) {
    await app.close()
    return 0
  }
  let address: string
  try {
    address = await listen(app, port, options.host)
  } catch (error) {
    // Held, stdin would keep this process alive after it has said why it cannot serve.
    dev?.release()
    throw error
  }
  // Signals are handled before the serving line is out: whoever waits for it may signal at once.
  const stopped = new Promise<void>((done, fail) => {
    let stopping = false
    // A second signal finds no handler left: Node's default ends the process at once.
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return
      stopping = true
      io.stdout(`restmint: ${signal} received, finishing the requests in flight, then closing\n`)
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      app.close().then(done, fail)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    // restmint dev gone without stopping it (killed): nobody will, so it stops itself and frees the port.
    void dev?.gone.then(() => stop('SIGTERM'))
  })
  const database = db.startsWith('sqlite:') ? db : `${db}, schema ${schema}`
  io.stdout(
    `restmint: serving ${options.out}/ at ${address} (docs at ${address}/docs), database ${redactCredentials(database)}\n`,
  )
  for (const note of notes) io.stdout(`restmint: development only: ${note}. Set it in production.\n`)
  await stopped
  dev?.release()
  return 0
}

/**
 * A number option, undefined when not given (the server's default applies):
 * a whole number unless `fractions`, at least `min`.
 */
function readNumber(
  name: string,
  text: string | undefined,
  { min, fractions = false }: { min: number; fractions?: boolean },
): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if ((fractions ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) && value >= min) return value
  const kind = fractions ? 'a number' : 'a whole number'
  throw new UserError(`${name} must be ${kind} of at least ${min}, not ${JSON.stringify(text)}`)
}

/**
 * Fastify's logger for `serve`: errors only, so a 500 leaves a trace without
 * drowning the terminal in access logs, and every line without credentials
 * (a driver error may quote its connection string).
 */
export function serveLogger(write: (line: string) => void): { level: 'error'; stream: { write(line: string): void } } {
  return { level: 'error', stream: { write: (line: string) => write(redactLogLine(line)) } }
}

/** Redacts each string of a JSON log line once decoded, so that JSON escapes cannot hide a password. */
function redactLogLine(line: string): string {
  let entry: unknown
  try {
    entry = JSON.parse(line)
  } catch {
    return redactCredentials(line)
  }
  return `${JSON.stringify(entry, (_key, value: unknown) => (typeof value === 'string' ? redactCredentials(value) : value))}\n`
}

/**
 * restmint dev's end of a `--listen-when-told` server's stdin: `told` resolves true at its first line (listen
 * now), false when it ends first; `gone` when it ends, as it does when dev exits, however it exits.
 * `release()` lets go of stdin, which would otherwise keep the process alive.
 */
function followDev(): { told: Promise<boolean>; gone: Promise<void>; release(): void } {
  const lines = createInterface({ input: process.stdin })
  // A read error ends it as an end would: dev can no longer say anything.
  process.stdin.once('error', () => lines.close())
  const told = new Promise<boolean>((done) => {
    lines.once('line', () => done(true))
    lines.once('close', () => done(false))
  })
  const gone = new Promise<void>((done) => lines.once('close', () => done()))
  return {
    told,
    gone,
    release: () => {
      lines.close()
      process.stdin.destroy()
    },
  }
}

async function listen(app: FastifyInstance, port: number, host: string): Promise<string> {
  try {
    return await app.listen({ port, host })
  } catch (error) {
    await app.close()
    throw describeListenFailure(error, port, host) ?? error
  }
}
