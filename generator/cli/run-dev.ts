import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { resolve } from 'node:path'
import { inspect } from 'node:util'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { generateFiles } from '../generate.js'
import { loadProject } from '../load-project.js'
import { resolveAppModule } from '../validate/resolve-app-module.js'
import type { CliIo } from './cli-io.js'
import { ensurePortFree } from './describe-listen-failure.js'
import { findFreePort } from './find-free-port.js'
import { listModuleInputs } from './list-module-inputs.js'
import { loadBundledModule } from './load-generated-server.js'
import type { MigrationOptions } from './migration-options.js'
import { reportAppModule } from './report-app-module.js'
import { reportDiagnostics } from './report-diagnostics.js'
import { applyMigrationsLogged } from './run-migrate-apply.js'
import { runGenerate } from './run-generate.js'
import { runMigrateCreate } from './run-migrate-create.js'
import { startServeProcess, type ServeProcess } from './serve-process.js'
import { watchFiles } from './watch-files.js'

export interface DevOptions extends MigrationOptions {
  readonly manifest: string
  readonly out: string
  readonly port: string
  readonly host: string
}

/**
 * `restmint dev`: serves the API and follows the manifest and the app module
 * (with every file of the project it imports). On start and on every save it
 * validates the manifest and builds the module (a bad one is reported and the last
 * good server keeps running), writes the next migration when the storage
 * model changed (a change that would lose data or needs a value stops there,
 * naming the flag), regenerates, applies pending migrations to the
 * development database and restarts the server, a `restmint serve` process of
 * its own: the next one loads while the last one stops, and takes the port
 * once it is free. Runs until SIGINT or SIGTERM.
 */
export async function runDev(options: DevOptions, io: CliIo): Promise<number> {
  // Port 0 picks one port for the whole session: every restart listens where the first did.
  const port = options.port === '0' ? String(await findFreePort(options.host)) : options.port
  // A port taken from the start stays taken: say so and stop, as serve does, rather than watch for nothing.
  // (A port that is no port is serve's to refuse, as on every restart.)
  const portNumber = Number(port)
  if (Number.isInteger(portNumber) && portNumber > 0 && portNumber <= 65535)
    await ensurePortFree(portNumber, options.host)
  const serveArgs = [
    ...['--manifest', options.manifest, '--out', options.out, '--migrations', options.migrations],
    ...['--db', options.db, '--schema', options.schema, '--port', port, '--host', options.host],
    // A restart need not wait for slow requests, nor for idle keep-alive connections (see drain-on-close.ts).
    ...['--shutdown-timeout', '0.5'],
    // Each update checks the module against the manifest before it starts the server (reportAppModule below).
    '--app-module-checked',
  ]
  const manifestFile = resolve(io.cwd, options.manifest)
  let server: ServeProcess | null = null
  // Set at SIGINT or SIGTERM: a server that stops meanwhile (Ctrl-C reaches the whole process group) is no news.
  let stopping = false
  const watcher = watchFiles(() => void changed())
  // The app module's files as last built: a manifest or module that does not build keeps them watched.
  let moduleFiles: readonly string[] = []
  watcher.watchFiles([manifestFile])
  // The manifest as the running server was generated and migrated from: a save of the module alone needs
  // neither step again (together ~0.7 s of a restart).
  let servedManifest: Buffer | null = null
  // The app module as last loaded, keyed by its files' contents: a save of the manifest alone checks it
  // against the module without bundling and importing it again (~0.7 s). Packages it imports are not
  // watched (they change with an install, not a save), so they are not in the key either.
  let loadedModule: { readonly key: string; readonly module: unknown } | null = null
  /** The module's default export, loaded again only when one of `files` changed; undefined when it fails to load. */
  const loadAppModule = async (entry: string, files: readonly string[]): Promise<{ module: unknown } | undefined> => {
    const hash = createHash('sha256')
    for (const file of files)
      hash
        .update(`${file}\0`)
        .update(await readFile(file))
        .update('\0')
    const key = hash.digest('hex')
    if (loadedModule?.key !== key) {
      try {
        loadedModule = { key, module: (await loadBundledModule(entry)).default }
      } catch {
        // reportAppModule loads it again, and reports why it fails.
        return undefined
      }
    }
    return { module: loadedModule.module }
  }

  /** One pass over the project as it is now; false when it stopped at a problem it printed. */
  const update = async (): Promise<boolean> => {
    const project = await loadProject(io.cwd, options.manifest)
    // Everything generate would report (the manifest's rules, the app module's file), nothing written yet;
    // the rendered result is cached, so the generate below only writes it.
    if (reportDiagnostics(await generateFiles(project, { out: options.out }), options.manifest, io)) return false
    const validated = await project.validated()
    const appModule = validated.manifest?.app
    let loaded: { module: unknown } | undefined
    if (appModule !== undefined) {
      const entry = resolveAppModule(io.cwd, options.manifest, appModule)
      const inputs = await listModuleInputs(entry, io.cwd, resolve(io.cwd, options.out))
      if (!inputs.ok) {
        watcher.watchFiles([manifestFile, entry, ...moduleFiles])
        io.stderr(inputs.errors)
        return false
      }
      moduleFiles = inputs.files
      loaded = await loadAppModule(entry, moduleFiles)
    }
    watcher.watchFiles([manifestFile, ...moduleFiles])
    // Hooks the module exports against the manifest's lists, as serve would refuse them: before the server stops.
    if ((await reportAppModule(project, io, loaded)) !== 0) return false
    if (servedManifest === null || !servedManifest.equals(project.bytes)) {
      if (!(await migrateAndGenerate())) return false
    }
    // The next server loads while the last one stops (drains, at most --shutdown-timeout), then takes its port.
    const previous = server
    server = startServeProcess(serveArgs, io)
    await previous?.stop()
    server.listen()
    if ((await server.listening) !== null) {
      servedManifest = project.bytes
      return true
    }
    server = null
    servedManifest = null
    if (!stopping) io.stderr('restmint dev: the server stopped (above)\n')
    return false
  }

  /** Writes the migration the manifest's changes need, regenerates, and applies pending migrations. */
  const migrateAndGenerate = async (): Promise<boolean> => {
    // Quiet unless it wrote a migration or refused to.
    const migrateOutput = collectOutput(io)
    const created = await runMigrateCreate({ ...options, backfill: [] }, migrateOutput.io)
    if (created !== 0) {
      io.stderr(migrateOutput.stderr())
      io.stderr(
        `restmint dev: to accept it, run npx restmint migrate create with the flag named above (in a second terminal), then save ${options.manifest} again.\n`,
      )
      return false
    }
    if (migrateOutput.stdout().startsWith('Created')) io.stdout(migrateOutput.stdout())
    const generateOutput = collectOutput(io)
    if ((await runGenerate(options.manifest, options.out, generateOutput.io)) !== 0) {
      io.stderr(generateOutput.stderr())
      return false
    }
    io.stdout(`${generateOutput.stdout().split('\n')[0]!}\n`)
    await applyMigrationsLogged(options, io)
    return true
  }

  let running: Promise<void> | null = null
  let again = false
  /** Runs one update at a time; saves during one make one more after it. */
  const changed = async (): Promise<void> => {
    if (running !== null) {
      again = true
      return
    }
    const started = performance.now()
    running = update().then(
      (ok) => {
        if (stopping) return
        const ms = Math.round(performance.now() - started)
        if (ok) io.stdout(`restmint dev: up to date with ${options.manifest} (${ms} ms); watching for changes\n`)
        else io.stderr(`restmint dev: ${describeKept(server !== null)}; fix it and save again\n`)
      },
      (error: unknown) => {
        io.stderr(describeError(error))
        io.stderr(`restmint dev: ${describeKept(server !== null)}; fix it and save again\n`)
      },
    )
    await running
    running = null
    if (again && !stopping) {
      again = false
      await changed()
    }
  }
  // Signals are handled before the first server is up: whoever waits for it may signal at once.
  const stopped = new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      stopping = true
      io.stdout(`restmint dev: ${signal} received, stopping\n`)
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      watcher.close()
      done()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  await changed()
  await stopped
  await running
  await (server as ServeProcess | null)?.stop()
  return 0
}

function describeKept(serving: boolean): string {
  return serving ? 'nothing changed, the last good server is still running' : 'no server is running yet'
}

/** A user error as the CLI prints it; anything else in full, for a report. */
function describeError(error: unknown): string {
  if (error instanceof UserError) return `restmint: ${redactCredentials(error.message)}\n`
  return `restmint: unexpected error, please report it:\n${redactCredentials(inspect(error))}\n`
}

/** An io that keeps what a command prints, to show only what matters in a dev session. */
function collectOutput(io: CliIo): { io: CliIo; stdout(): string; stderr(): string } {
  let stdout = ''
  let stderr = ''
  return {
    io: { ...io, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) },
    stdout: () => stdout,
    stderr: () => stderr,
  }
}
