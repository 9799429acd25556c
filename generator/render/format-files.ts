import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { hashKey, type ContentCache } from './content-cache.js'
import type { FormatJob } from './format-worker.js'
import { formatSource, PRETTIER_OPTIONS, PRETTIER_VERSION } from './format-source.js'

/**
 * Formats the TypeScript a person reads with prettier. Earlier results come
 * from a content-hash cache (prettier costs 10–50 ms a file and most files are
 * unchanged between runs); the rest are spread over worker threads, one per core.
 *
 * Nothing else goes through prettier, as Fastify ships its own ajv output:
 * validator JavaScript is written as ajv generated it, under its do-not-edit
 * header, for the runtime to load rather than for a person to read. YAML is
 * left as `yaml.stringify` wrote it (already a prettier fixed point,
 * test/render/format-files.test.ts checks it). JSON is laid out by formatJson,
 * which prints what prettier would, ten times faster, and two-space
 * `JSON.stringify` for the rare layout it does not reproduce.
 */
export async function formatFiles(
  files: ReadonlyMap<string, string>,
  cache: ContentCache,
): Promise<Map<string, string>> {
  const formatted = new Map<string, string>()
  const pending: { path: string; source: string; parser: string; key: string }[] = []
  for (const [path, source] of files) {
    const extension = path.slice(path.lastIndexOf('.') + 1)
    if (extension === 'yaml' || extension === 'js') {
      formatted.set(path, source)
      continue
    }
    if (extension === 'json') {
      formatted.set(path, await layOutJson(source, cache))
      continue
    }
    if (extension !== 'ts') throw new Error(`internal error: no formatter for ${path}`)
    const parser = TYPESCRIPT_PARSER
    const key = hashKey('prettier', PRETTIER_VERSION, parser, JSON.stringify(PRETTIER_OPTIONS), source)
    const cached = cache.read(key)
    if (cached !== null) formatted.set(path, cached)
    else pending.push({ path, source, parser, key })
  }
  // Identical files (the same validators in two versions, say) are formatted once.
  const distinct = [...new Map(pending.map((job) => [job.key, job])).values()]
  const outputs = await formatAll(distinct)
  const byKey = new Map(distinct.map(({ key }, index) => [key, outputs[index]!]))
  for (const { path, key } of pending) formatted.set(path, byKey.get(key)!)
  for (const [key, output] of byKey) cache.write(key, output)
  return new Map([...files.keys()].map((path) => [path, formatted.get(path)!]))
}

/**
 * Babel's TypeScript parser: prettier prints the same from it as from
 * typescript-estree for what restmint generates (test/render/format-files.test.ts
 * checks every valid case), at ~20% less CPU, most of a cold generate.
 */
export const TYPESCRIPT_PARSER = 'babel-ts'

const PRINT_WIDTH = PRETTIER_OPTIONS.printWidth ?? 80

// Cached results depend on how format-json.ts lays JSON out: its source goes into the key. It is
// read, not imported, as it loads prettier: a sibling with this module's extension (.js built, .ts from source).
const FORMAT_JSON_URL = new URL(`./format-json${extname(fileURLToPath(import.meta.url))}`, import.meta.url)
const FORMAT_JSON_FINGERPRINT = hashKey(readFileSync(fileURLToPath(FORMAT_JSON_URL), 'utf8'))

/** A large OpenAPI document takes ~0.2 s to lay out; reuse the layout while the document is unchanged. */
async function layOutJson(source: string, cache: ContentCache): Promise<string> {
  const key = hashKey('json', FORMAT_JSON_FINGERPRINT, PRETTIER_VERSION, String(PRINT_WIDTH), source)
  const cached = cache.read(key)
  if (cached !== null) return cached
  const { formatJson } = await import('./format-json.js')
  const laidOut = formatJson(source, PRINT_WIDTH) ?? `${JSON.stringify(JSON.parse(source), null, 2)}\n`
  cache.write(key, laidOut)
  return laidOut
}

const WORKER_URL = new URL('./format-worker.js', import.meta.url)
// Worth a worker's start-up (~200 ms to load prettier) only for real batches.
const JOBS_PER_WORKER = 16

async function formatAll(jobs: readonly { source: string; parser: string }[]): Promise<string[]> {
  const workers = Math.min(availableParallelism(), Math.floor(jobs.length / JOBS_PER_WORKER))
  // Under vitest the generator runs from .ts sources, which a worker cannot load.
  if (workers < 2 || import.meta.url.endsWith('.ts')) {
    const outputs: string[] = []
    for (const job of jobs) outputs.push(await formatSource(job.source, job.parser))
    return outputs
  }
  const outputs: string[] = new Array(jobs.length)
  let next = 0
  await Promise.all(
    Array.from({ length: workers }, () => {
      const worker = new Worker(WORKER_URL)
      return new Promise<void>((done, fail) => {
        const send = (): void => {
          if (next >= jobs.length) {
            void worker.terminate().then(() => done())
            return
          }
          const id = next++
          worker.postMessage({ id, ...jobs[id]! } satisfies FormatJob)
        }
        worker.on('message', (answer: { id: number; output?: string; error?: string }) => {
          if (answer.error !== undefined) {
            void worker.terminate()
            fail(new Error(`internal error: prettier failed: ${answer.error}`))
            return
          }
          outputs[answer.id] = answer.output!
          send()
        })
        worker.on('error', fail)
        send()
      })
    }),
  )
  return outputs
}
