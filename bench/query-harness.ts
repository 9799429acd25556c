/**
 * Shared by the query benchmark (bench/query.ts) and its profiler
 * (bench/profile-query.ts): the benchmarked URLs, server processes, and one
 * autocannon run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'

/**
 * `generated-without-auth`: the generated API with its `auth:` left out, for the cost of verifying tokens;
 * `generated-with-hooks`: the generated API with the bench's app module (bench/bench-app.ts);
 * `generated-with-empty-after-hook`: the same with bench-app.ts's afterCreate that does nothing (row f's floor);
 * `hand-written`: bench/hand-written-server.ts over SQL prepared once; `hand-written-kysely`: the same routes
 * through Kysely's query builder;
 * `floor`: a bare Fastify route answering each benchmarked path with its response bytes, read from memory
 * (what this machine's HTTP stack can do at all).
 */
export type ServerKind =
  | 'generated'
  | 'generated-without-auth'
  | 'generated-with-hooks'
  | 'generated-with-empty-after-hook'
  | 'hand-written'
  | 'hand-written-kysely'
  | 'floor'

/** The secret the benchmarked servers verify HS256 tokens with (`JWT_SECRET` of the example). */
export const BENCH_JWT_SECRET = 'restmint benchmark jwt secret, 32 bytes or more'

export const PER_PAGE = 20

const LIST = `/posts?filter[price][gte]=500&sort=-created_at&page=3&per_page=${PER_PAGE}`

/** The benchmarked requests (paths under the server): v2, the current version, unless said otherwise. */
export const PATHS = {
  /** a: a filtered, sorted offset page. */
  filtered: `/v2${LIST}`,
  /** a: the same page, its total the database's estimate. */
  filteredEstimated: `/v2${LIST}&count=estimated`,
  /** b: the same page with both belongs-to relations embedded. */
  included: `/v2${LIST}&include=author,category`,
  /** d: the same request through v1, the deprecated version served through its generated translation. */
  includedThroughV1: `/v1${LIST}&include=author,category`,
  /** g: the first page, each post with its tags (five each) embedded; no count, so the tags are what is measured. */
  tagsIncluded: `/v2/posts?include=tags&per_page=${PER_PAGE}&count=none`,
  /** h: the first page of the posts having a tag named tag-7 (one post in ten), no count. */
  byTag: `/v2/posts?filter[tags.name][eq]=tag-7&per_page=${PER_PAGE}&count=none`,
  /** c: the first page of the unfiltered walk, counting nothing, as a cursor walk starts. */
  first: `/v2/posts?sort=-created_at&per_page=${PER_PAGE}&count=none`,
  /** c: the unfiltered walk's offset page `page`. */
  offset: (page: number) => `/v2/posts?sort=-created_at&page=${page}&per_page=${PER_PAGE}`,
  /** c: the unfiltered walk continued from a cursor. */
  cursor: (cursor: string) => `/v2/posts?sort=-created_at&per_page=${PER_PAGE}&cursor=${encodeURIComponent(cursor)}`,
} as const

export interface RunningServer {
  readonly kind: ServerKind
  readonly origin: string
  /** CPU time (user + system, µs) the server process has used so far. */
  cpuTime(): Promise<number>
  /** The server process's resident set size, bytes. */
  rss(): Promise<number>
  stop(): Promise<void>
}

/**
 * Starts bench/query-server.ts in its own Node process (extra `nodeArgs`, e.g.
 * `--cpu-prof`) and resolves once it listens. `url`: the database's, or for
 * the floor a JSON file of `{ path: body }`.
 */
export async function startServer(
  kind: ServerKind,
  url: string,
  schema?: string,
  nodeArgs: readonly string[] = [],
): Promise<RunningServer> {
  const script = join(import.meta.dirname, 'query-server.ts')
  const args = [...nodeArgs, '--import', 'tsx', script, kind, url, ...(schema === undefined ? [] : [schema])]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`${kind} server exited with code ${code} before listening`)))
  })
  return {
    kind,
    origin: `http://127.0.0.1:${port}`,
    cpuTime: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { cpu: NodeJS.CpuUsage }) => resolve(message.cpu.user + message.cpu.system))
        child.send('cpu')
      }),
    rss: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { rss: number }) => resolve(message.rss))
        child.send('rss')
      }),
    stop: () => stopChild(child, exited),
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  await exited
  clearTimeout(timer)
}

export interface Measurement {
  /** Mean requests per second over the run. */
  readonly rps: number
  /** 99th percentile latency, ms. */
  readonly p99: number
  /**
   * The server process's CPU time per request, µs: unlike req/s, hardly moved
   * by other processes competing for the CPUs.
   */
  readonly cpuPerRequest: number
  /** Responses received. */
  readonly requests: number
}

/** One autocannon run against `server`; throws when any response is not 2xx or a connection fails. */
export async function measure(
  server: RunningServer,
  path: string,
  seconds: number,
  connections: number,
  headers: Readonly<Record<string, string>> = {},
  body?: string,
): Promise<Measurement> {
  const url = server.origin + path
  const cpuBefore = await server.cpuTime()
  // With a body, every request is a POST of it (a create).
  const request = body === undefined ? {} : { method: 'POST' as const, body }
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...request,
  })
  const cpu = (await server.cpuTime()) - cpuBefore
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`)
  }
  const requests = result.requests.total
  return { rps: result.requests.average, p99: result.latency.p99, cpuPerRequest: cpu / requests, requests }
}

export async function getJson(url: string): Promise<{ text: string; body: any }> {
  const response = await fetch(url)
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}: ${text.slice(0, 500)}`)
  return { text, body: JSON.parse(text) }
}
