/**
 * CPU profile of one benchmarked request under load, to see where a ratio
 * below target goes:
 *
 *   npm run build && node --import tsx bench/profile-query.ts [filtered|included|first|cursor|create|tagsIncluded|byTag] [generated|generated-with-hooks|hand-written]
 *
 * Seeds a SQLite database as bench/query.ts does (BENCH_POSTS, default
 * 100000), starts the server with `--cpu-prof`, loads it with autocannon for
 * BENCH_SECONDS (default 10) after a warm-up, stops it, and prints the top
 * self-time functions and modules of the profile (idle time excluded). The
 * .cpuprofile file is kept (its path is printed) for Chrome DevTools.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { getJson, measure, PATHS, PER_PAGE, startServer, type ServerKind } from './query-harness.js'
import { seedSqlite } from './seed-database.js'

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly hitCount?: number
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[]
  readonly startTime: number
  readonly endTime: number
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

const SERIES = ['filtered', 'included', 'first', 'cursor', 'create', 'tagsIncluded', 'byTag'] as const
const which = (process.argv[2] ?? 'filtered') as (typeof SERIES)[number]
const kind = (process.argv[3] ?? 'generated') as ServerKind
if (
  !(SERIES as readonly string[]).includes(which) ||
  !['generated', 'generated-with-hooks', 'hand-written'].includes(kind)
) {
  throw new Error(`usage: profile-query.ts [${SERIES.join('|')}] [generated|generated-with-hooks|hand-written]`)
}
const posts = Number(process.env.BENCH_POSTS ?? 100_000)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const root = join(import.meta.dirname, '..')

const directory = mkdtempSync(join(tmpdir(), 'restmint-profile-'))
const file = join(directory, 'bench.db')
await seedSqlite(file, { posts, authors: 1_000, categories: 50 })
const profiles = join(directory, 'profiles')
const server = await startServer(kind, `sqlite:${file}`, undefined, ['--cpu-prof', `--cpu-prof-dir=${profiles}`])
let path: string
let requests = 0
// create: the bench's row f, a POST of one author (through bench-app.ts's hooks on generated-with-hooks).
const body = which === 'create' ? JSON.stringify({ name: ' Bench Author ' }) : undefined
try {
  if (which === 'create') {
    path = '/v2/authors'
  } else if (which === 'cursor') {
    const depthPage = Math.round((posts * 0.9) / PER_PAGE)
    const { body } = await getJson(server.origin + PATHS.offset(depthPage))
    path = PATHS.cursor(body.meta.next_cursor as string)
  } else {
    path = PATHS[which]
  }
  const warmUp = await measure(server, path, 2, 10, {}, body)
  const { rps, p99, cpuPerRequest, requests: measured } = await measure(server, path, seconds, 10, {}, body)
  requests = warmUp.requests + measured
  console.log(
    `${kind} ${path}: ${Math.round(rps)} req/s, p99 ${p99} ms, ${Math.round(cpuPerRequest)} µs CPU per request (while profiling)`,
  )
} finally {
  await server.stop()
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
}

// CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: thread 0 is the main thread (tsx's loader
// hooks run in a worker thread, which writes a profile of its own).
const profileFile = readdirSync(profiles).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name))
if (profileFile === undefined) throw new Error(`no main-thread profile written in ${profiles}`)
const profile = JSON.parse(readFileSync(join(profiles, profileFile), 'utf8')) as CpuProfile
summarize(profile)
console.log(`\nProfile: ${join(profiles, profileFile)}`)

function summarize(profile: CpuProfile): void {
  // Self time per node from the samples and their time deltas (µs).
  const selfTime = new Map<number, number>()
  profile.samples.forEach((node, index) =>
    selfTime.set(node, (selfTime.get(node) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  )
  const byFunction = new Map<string, number>()
  const byModule = new Map<string, number>()
  let busy = 0
  for (const node of profile.nodes) {
    const time = selfTime.get(node.id) ?? 0
    if (time === 0 || node.callFrame.functionName === '(idle)') continue
    busy += time
    const module = moduleOf(node.callFrame.url, node.callFrame.functionName)
    const name = node.callFrame.functionName || '(anonymous)'
    const where = node.callFrame.url ? `${module}:${node.callFrame.lineNumber + 1}` : module
    add(byFunction, `${name}  ${where}`, time)
    add(byModule, module, time)
  }
  const print = (title: string, map: Map<string, number>, limit: number) => {
    console.log(
      `\n${title}: share of non-idle CPU time (${Math.round(busy / 1000)} ms in all, start-up included), ` +
        `and µs per request (${requests} requests):`,
    )
    for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
      console.log(
        `${((100 * time) / busy).toFixed(1).padStart(5)}% ${(time / requests).toFixed(1).padStart(7)} µs  ${key}`,
      )
    }
  }
  print('Top modules by self time', byModule, 25)
  print('Top functions by self time', byFunction, 40)
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value)
}

/** A package name for node_modules, a repository path for our own code, `node:` for Node's internals. */
function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)'
  if (url.startsWith('node:')) return url
  const path = url.startsWith('file://') ? new URL(url).pathname : url
  const inModules = path.lastIndexOf('/node_modules/')
  if (inModules !== -1) {
    const parts = path.slice(inModules + '/node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  return relative(root, path)
}
