/**
 * The many-to-many rows of the benchmark (issue 17): `include=tags` on a
 * page of 20 posts with ~5 tags each, and `filter[tags.name][eq]`, on the
 * generated tags API (test/fixtures/tags-api) against the same requests
 * written by hand over Kysely (bench/tags-server.ts), each server its own
 * process, on SQLite and PostgreSQL. Prints the medians and the ratio
 * generated / hand-written (goal ≥ 0.95); asserts only that both answer the
 * same records.
 *
 *   node --import tsx bench/tags.ts
 *
 * Environment (defaults in brackets): BENCH_POSTS [2000], BENCH_ROUNDS [3],
 * BENCH_SECONDS per run [2], BENCH_CONNECTIONS [10], BENCH_PG_URL, BENCH_PG=off.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { createStorage } from '../runtime/index.js'
import { allTables, postsTable, postTagsTable, tagsTable } from '../test/fixtures/tags-api/generated/schema.js'
import { getJson, measure, type Measurement, type RunningServer } from './query-harness.js'

const posts = envNumber('BENCH_POSTS', 2000)
const rounds = envNumber('BENCH_ROUNDS', 3)
const seconds = envNumber('BENCH_SECONDS', 2)
const connections = envNumber('BENCH_CONNECTIONS', 10)
const postgresUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const TAGS = 50
const TAGS_PER_POST = 5
const PATHS = {
  'include=tags': '/v1/posts?include=tags&per_page=20',
  'filter[tags.name][eq]': '/v1/posts?filter[tags.name][eq]=tag-7&per_page=20',
}

const directory = mkdtempSync(join(tmpdir(), 'restmint-bench-tags-'))
const lines: string[] = []
try {
  const file = join(directory, 'tags.db')
  await seed(`sqlite:${file}`)
  await bench('SQLite', `sqlite:${file}`)
  if (process.env.BENCH_PG !== 'off') {
    const schema = `restmint_bench_tags_${process.pid}`
    try {
      await seed(postgresUrl, schema)
      await bench('PostgreSQL', postgresUrl, schema)
    } finally {
      const client = new pg.Client(postgresUrl)
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await client.end()
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true })
}
console.log(
  [
    `${posts} posts, ${TAGS} tags, ${TAGS_PER_POST} tags per post; ${rounds} rounds of ${seconds} s, ${connections} connections`,
    '',
    '| database | request | generated req/s | hand-written req/s | ratio (min / median / max) |',
    '|---|---|---|---|---|',
    ...lines,
  ].join('\n'),
)

/** Posts, tags and links through the storage, in one transaction. */
async function seed(url: string, schema?: string): Promise<void> {
  const storage = createStorage(url, allTables, schema ? { schema } : {})
  await storage.prepare()
  await storage.transaction(async (transaction) => {
    const tagIds: number[] = []
    for (let index = 0; index < TAGS; index++) {
      tagIds.push((await transaction.insert(tagsTable, { name: `tag-${index}` })).id as number)
    }
    for (let index = 0; index < posts; index++) {
      const post = await transaction.insert(postsTable, { title: `Post ${index}`, slug: `post-${index}` })
      for (let link = 0; link < TAGS_PER_POST; link++) {
        const tag = tagIds[(index * 7 + link * 11) % TAGS]!
        await transaction.insert(postTagsTable, { post_id: post.id as number, tag_id: tag, position: link })
      }
    }
  })
  await storage.close()
}

async function bench(database: string, url: string, schema?: string): Promise<void> {
  const generated = await startServer('generated', url, schema)
  const hand = await startServer('hand-written', url, schema)
  try {
    for (const [name, path] of Object.entries(PATHS)) {
      const [ours, theirs] = await Promise.all([getJson(generated.origin + path), getJson(hand.origin + path)])
      const ids = (body: { data: { id: number; tags?: { id: number }[] }[] }) =>
        JSON.stringify(body.data.map((row) => [Number(row.id), row.tags?.map((tag) => Number(tag.id))]))
      if (ids(ours.body) !== ids(theirs.body))
        throw new Error(`${database} ${name}: the servers answer different records`)
      const runs: [Measurement[], Measurement[]] = [[], []]
      for (let round = 0; round < rounds; round++) {
        // Alternated, so neither always runs on a machine warmed (or loaded) by the other.
        const order = round % 2 === 0 ? [0, 1] : [1, 0]
        for (const which of order) {
          runs[which]!.push(await measure([generated, hand][which]!, path, seconds, connections))
        }
      }
      const ratios = runs[0].map((run, index) => run.rps / runs[1][index]!.rps).sort((a, b) => a - b)
      lines.push(
        `| ${database} | \`${name}\` | ${median(runs[0].map((run) => run.rps)).toFixed(0)} | ` +
          `${median(runs[1].map((run) => run.rps)).toFixed(0)} | ` +
          `${ratios[0]!.toFixed(2)} / ${median(ratios).toFixed(2)} / ${ratios.at(-1)!.toFixed(2)} |`,
      )
      console.error(lines.at(-1))
    }
  } finally {
    await generated.stop()
    await hand.stop()
  }
}

async function startServer(kind: string, url: string, schema?: string): Promise<RunningServer> {
  const script = join(import.meta.dirname, 'tags-server.ts')
  const args = ['--import', 'tsx', script, kind, url, ...(schema === undefined ? [] : [schema])]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`${kind} server exited with code ${code} before listening`)))
  })
  return {
    kind: kind as RunningServer['kind'],
    origin: `http://127.0.0.1:${port}`,
    cpuTime: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { cpu: NodeJS.CpuUsage }) => resolve(message.cpu.user + message.cpu.system))
        child.send('cpu')
      }),
    rss: async () => 0,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function envNumber(name: string, fallback: number): number {
  const value = process.env[name]
  return value === undefined ? fallback : Number(value)
}
