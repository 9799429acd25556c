import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hashKey, type ContentCache } from '../emit/content-cache.js'
import { formatSource, PRETTIER_OPTIONS, PRETTIER_VERSION, TYPESCRIPT_PARSER } from './format-source.js'
import type { FormatWorkers } from './format-workers.js'

/** Formatting of one generate run, started while its files are rendered. */
export interface Formatting {
  /** Starts formatting a rendered file, if it is TypeScript: on the workers, while rendering goes on. */
  add(path: string, source: string): void
  /** Every file of `files` formatted (those not added too), in its order. */
  finish(files: ReadonlyMap<string, string>): Promise<Map<string, string>>
}

/**
 * Formats the TypeScript a person reads with prettier. Earlier results come
 * from a content-hash cache (prettier costs 10–50 ms a file and most files are
 * unchanged between runs); the rest go to `workers` as they are added
 * (startFormatWorkers), else are formatted in this thread.
 *
 * Nothing else goes through prettier, as Fastify ships its own ajv output:
 * validator JavaScript is written as ajv generated it, under its do-not-edit
 * header, for the runtime to load rather than for a person to read. YAML is
 * left as `yaml.stringify` wrote it (already a prettier fixed point,
 * test/render/format-files.test.ts checks it). JSON is laid out by formatJson,
 * which prints what prettier would, ten times faster, and two-space
 * `JSON.stringify` for the rare layout it does not reproduce.
 */
export function startFormatting(cache: ContentCache, workers: FormatWorkers | null): Formatting {
  // By cache key: identical files (the same types in two versions, say) are formatted once.
  const typescript = new Map<string, Promise<string>>()
  // In this thread one file at a time, as a worker does, so prettier never holds every syntax tree at once.
  let formattedHere: Promise<unknown> = Promise.resolve()
  const formatHere = (source: string): Promise<string> => {
    const output = formattedHere.then(() => formatSource(source, TYPESCRIPT_PARSER))
    formattedHere = output.catch(() => {})
    return output
  }
  const formatTypeScript = (source: string): Promise<string> => {
    const key = hashKey('prettier', PRETTIER_VERSION, TYPESCRIPT_PARSER, JSON.stringify(PRETTIER_OPTIONS), source)
    let output = typescript.get(key)
    if (output) return output
    const cached = cache.read(key)
    if (cached !== null) output = Promise.resolve(cached)
    else {
      output = workers ? workers.format(source, TYPESCRIPT_PARSER) : formatHere(source)
      output.then((formatted) => cache.write(key, formatted)).catch(() => {})
    }
    typescript.set(key, output)
    return output
  }
  return {
    add: (path, source) => {
      // A failure is reported by finish, which awaits the same promise.
      if (path.endsWith('.ts')) void formatTypeScript(source).catch(() => {})
    },
    finish: async (files) => {
      const formatted = new Map<string, string>()
      for (const [path, source] of files) {
        const extension = path.slice(path.lastIndexOf('.') + 1)
        if (extension === 'yaml' || extension === 'js' || extension === 'md') formatted.set(path, source)
        else if (extension === 'json') formatted.set(path, await layOutJson(source, cache))
        else if (extension === 'ts') formatted.set(path, await formatTypeScript(source))
        else throw new Error(`internal error: no formatter for ${path}`)
      }
      return formatted
    },
  }
}

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
