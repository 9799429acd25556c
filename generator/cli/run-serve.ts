import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import type { FastifyInstance } from 'fastify'
import { UserError } from '../diagnostics/diagnostic.js'
import type { CliIo } from './cli-io.js'

interface GeneratedServerModule {
  buildServer(options: { db: string; seed?: boolean; logger?: boolean }): Promise<FastifyInstance>
}

/** Loads `<out>/server.ts` (TypeScript, through tsx) and serves it until a signal stops it. */
export async function runServe(
  options: { out: string; db: string; port: string; host: string; seed?: boolean },
  io: CliIo,
): Promise<number> {
  const entry = resolve(io.cwd, options.out, 'server.ts')
  if (!existsSync(entry)) {
    throw new UserError(`${options.out}/server.ts not found; run restmint generate --out ${options.out} first`)
  }
  const port = Number(options.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(options.port)}`)
  }
  const module = (await tsImport(pathToFileURL(entry).href, import.meta.url)) as GeneratedServerModule
  const app = await module.buildServer({ db: options.db, seed: options.seed ?? false, logger: false })
  const address = await app.listen({ port, host: options.host })
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
