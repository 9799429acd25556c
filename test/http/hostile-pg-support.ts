import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions } from 'fastify'
import pg from 'pg'
import { signJwt } from '../../generator/cli/sign-jwt.js'
import { buildApiServer, createStorage, type Storage } from '../../runtime/index.js'
import { api as hooksApi, buildServer as buildHooksServer } from '../fixtures/hooks-api/generated/server.js'
import { api as softApi } from '../fixtures/soft-delete-api/generated/server.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import { POSTGRES_URL } from '../support/test-postgres.js'

/** A storage over `tables` in a throwaway schema, its pool's connections named `application` in pg_stat_activity. */
export interface HostileStorage {
  readonly storage: Storage
  readonly schema: string
  readonly application: string
  /** A client of its own on the same database, search_path set to the schema. */
  admin(): Promise<pg.Client>
  dispose(): Promise<void>
}

export async function openHostileStorage(
  tables: readonly TableDefinition[],
  pool: { size: number; timeoutMs?: number },
  onStatement?: (sql: string) => void,
  url = POSTGRES_URL,
): Promise<HostileStorage> {
  const id = randomBytes(6).toString('hex')
  const schema = `restmint_hostile_${id}`
  const application = `hostile_${id}`
  const separator = url.includes('?') ? '&' : '?'
  const storage = createStorage(`${url}${separator}application_name=${application}`, tables, {
    schema,
    pool,
    onStatement,
  })
  const clients: pg.Client[] = []
  return {
    storage,
    schema,
    application,
    async admin() {
      const client = new pg.Client(POSTGRES_URL)
      client.on('error', () => {})
      await client.connect()
      await client.query(`set search_path to "${schema}"`)
      clients.push(client)
      return client
    },
    async dispose() {
      await storage.close()
      for (const client of clients) await client.end().catch(() => {})
      const client = new pg.Client(POSTGRES_URL)
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await client.end()
    },
  }
}

export interface Answer {
  readonly status: number
  readonly type: string
  readonly etag: string | undefined
  readonly body: any
}

export async function call(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const response = await app.inject(options)
  const type = String(response.headers['content-type'] ?? '')
  let body: any = response.body
  if (type.includes('json') && response.body) body = JSON.parse(response.body)
  return { status: response.statusCode, type, etag: response.headers.etag as string | undefined, body }
}

/** Connections of the pool named `application`, as pg_stat_activity shows them. */
export async function backendsOf(client: pg.Client, application: string): Promise<{ pid: number; state: string }[]> {
  const { rows } = await client.query(
    'select pid, state from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
    [application],
  )
  return rows as { pid: number; state: string }[]
}

/** Fisher–Yates with a seeded generator, so a failing order can be replayed. */
export function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0 || 1
  const next = () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
  return items
}

/** Everything that reaches the process uncaught while `run` runs. */
export function watchProcess(): { readonly caught: unknown[]; stop(): void } {
  const caught: unknown[] = []
  const onError = (error: unknown) => void caught.push(error)
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  return {
    caught,
    stop() {
      process.off('uncaughtException', onError)
      process.off('unhandledRejection', onError)
    },
  }
}

/** A JWT secret for the fixtures' servers, which refuse to start without one. */
export const FIXTURE_SECRET = randomBytes(32).toString('hex')

/** The example API's JWT_SECRET in the tests that serve it (generated/server.ts). */
export const EXAMPLE_JWT_SECRET = 'example-api-test-secret-of-at-least-32-bytes'

/** A token the example API accepts (its issuer and audience, valid ten minutes); `claims` add to or override them. */
export function exampleToken(claims: Readonly<Record<string, unknown>>, secret = EXAMPLE_JWT_SECRET): string {
  const now = Math.floor(Date.now() / 1000)
  return signJwt(
    { iss: 'https://auth.example.com/', aud: 'shop-api', iat: now, exp: now + 600, ...claims },
    { alg: 'HS256', secret },
  )
}

/** The Authorization header of `sub` with `scope` for the example API. */
export function exampleBearer(sub: string, scope: string): { authorization: string } {
  return { authorization: `Bearer ${exampleToken({ sub, scope })}` }
}

/** The hooks fixture's server over `storage`. */
export function buildHooksApp(storage: Storage, logger?: object): Promise<FastifyInstance> {
  return buildHooksServer({ storage, docs: false, env: { HOOKS_TEST_JWT_SECRET: FIXTURE_SECRET }, logger })
}

/** The soft-delete fixture's server over `storage`. */
export function buildSoftApp(storage: Storage, logger?: object): Promise<FastifyInstance> {
  return buildApiServer(softApi, { storage, docs: false, env: { SOFT_DELETE_TEST_JWT_SECRET: FIXTURE_SECRET }, logger })
}

/**
 * The hooks fixture's API over `storage` with another app module in place of
 * its own, errors logged to `logged`; `hookMs`: the app code's deadline.
 */
export function buildHooksAppWith(
  storage: Storage,
  app: NonNullable<Parameters<typeof buildApiServer>[1]>['app'],
  logged: Record<string, unknown>[],
  hookMs?: number,
): Promise<FastifyInstance> {
  return buildApiServer(hooksApi, {
    storage,
    docs: false,
    app,
    ...(hookMs !== undefined ? { timeouts: { hookMs } } : {}),
    env: { HOOKS_TEST_JWT_SECRET: FIXTURE_SECRET },
    logger: { level: 'error', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } },
  })
}
