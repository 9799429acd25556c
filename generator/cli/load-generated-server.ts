import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import esbuildPackage from 'esbuild/package.json' with { type: 'json' }
import type { FastifyInstance } from 'fastify'
import type { ApiDefinition } from '../../runtime/contract/define-api.js'
import type { ServerOptions } from '../../runtime/api/build-api-server.js'
import { hashFiles, hashKey, listFiles, type ContentCache } from '../emit/content-cache.js'

export interface GeneratedServerModule {
  readonly api: Pick<ApiDefinition, 'tables' | 'auth'>
  /** The manifest's `app:` module, which server.ts imports; absent without one. */
  readonly appModule?: unknown
  buildServer(options: ServerOptions): Promise<FastifyInstance>
}

// A bundle depends on esbuild and on how this module drives it: both go into the cache key.
const BUNDLER_FINGERPRINT = hashKey(esbuildPackage.version, readFileSync(fileURLToPath(import.meta.url), 'utf8'))

const RESOLVING = Symbol('resolving an external package')

/** Packages bundled with the generated tree: kysely's ESM build is ~280 modules, far slower to load one by one. */
const BUNDLED_PACKAGES = ['kysely']

/**
 * Loads a generated server.ts. The generated tree is TypeScript, and a
 * 100-resource API is ~300 modules: bundling it with esbuild into one module
 * (~0.2 s) starts far faster than loading each file through a TypeScript
 * loader. `restmint/runtime` (this CLI's own runtime) and kysely go into the
 * bundle too, for the same reason (~0.1 s); every other package import stays
 * external. Nothing is minified, so stack traces stay readable; the
 * validators are already ajv's compact output.
 *
 * The bundle is cached under the hash of every file it reads or imports: the
 * entry's directory tree (of its JSON files, only their names), the runtime's, and where each of restmint's
 * dependencies is with its version (the bundle imports the external ones by
 * path), and the contents of every other file the bundle read (the app module
 * and what it imports), so an unchanged tree starts without esbuild and a
 * changed one is never served stale.
 */
export async function loadGeneratedServer(entry: string, cache: ContentCache): Promise<GeneratedServerModule> {
  const runtimeEntry = findRuntimeEntry()
  const runtime = dirname(runtimeEntry)
  const dependencies = listDependencies(runtime)
  const tree = dirname(resolve(entry))
  const keyOf = (): string => {
    // JSON files are imported by path when the server reads them, never bundled (see bundle()): their
    // names go into the key, their contents (the OpenAPI documents, most of the tree) need not.
    const files = listFiles(tree)
    return `${hashKey(
      'serve-bundle',
      BUNDLER_FINGERPRINT,
      resolve(entry),
      hashFiles(
        files.filter((file) => !file.endsWith('.json')),
        tree,
      ),
      ...files.filter((file) => file.endsWith('.json')).map((file) => relative(tree, file)),
      runtime,
      hashFiles(listFiles(runtime), runtime),
      ...dependencies.map(({ directory, version }) => `${directory}@${version}`),
    )}.mjs`
  }
  const key = keyOf()
  // Files outside those directories (the app module and what it imports) are listed under `key` by the
  // build that read them; the bundle's own key adds their contents.
  const outsideKey = `${key}.outside.json`
  const listedOutside = readListedFiles(cache.read(outsideKey))
  const listedKey = listedOutside && keyWithFiles(key, listedOutside)
  const cached = listedKey ? cache.pathOf(listedKey) : null
  if (cached !== null) return (await import(pathToFileURL(cached).href)) as GeneratedServerModule
  const startedAt = Date.now()
  const { code, inputs } = await bundle(entry, runtimeEntry)
  const covered = [tree, runtime, ...dependencies.map(({ directory }) => directory)]
  const isCovered = (input: string) =>
    covered.some((directory) => !relative(directory, resolve(input)).startsWith('..'))
  const outside = [...new Set(inputs.filter((input) => !isCovered(input)).map((input) => resolve(input)))].sort()
  // Not cached: a bundle built while the tree changed (a generate running meanwhile), or while a file
  // outside it changed (an editor saving the app module), whose contents the key would not describe.
  const bundleKey =
    keyOf() === key && outside.every((file) => isOlderThan(file, startedAt)) && keyWithFiles(key, outside)
  if (bundleKey) {
    cache.write(outsideKey, JSON.stringify(outside))
    cache.write(bundleKey, code)
    const written = cache.pathOf(bundleKey)
    if (written !== null) return (await import(pathToFileURL(written).href)) as GeneratedServerModule
  }
  return (await importOnce(code)) as GeneratedServerModule
}

/** `key` with the contents of `files`; null when one of them cannot be read (deleted since). */
function keyWithFiles(key: string, files: readonly string[]): string | null {
  if (files.length === 0) return key
  try {
    return `${hashKey(key, ...files, hashFiles(files, '/'))}.mjs`
  } catch {
    return null
  }
}

function readListedFiles(text: string | null): string[] | null {
  if (text === null) return null
  try {
    const files: unknown = JSON.parse(text)
    return Array.isArray(files) && files.every((file) => typeof file === 'string') ? files : null
  } catch {
    return null
  }
}

function isOlderThan(file: string, time: number): boolean {
  try {
    return statSync(file).mtimeMs < time
  } catch {
    return false
  }
}

/**
 * Loads one module as loadGeneratedServer loads server.ts, bundled with the
 * runtime, without caching the bundle: how `check` reads the app module's
 * exports. Throws what esbuild or the module throws.
 */
export async function loadBundledModule(entry: string): Promise<Record<string, unknown>> {
  const { code } = await bundle(entry, findRuntimeEntry())
  return (await importOnce(code)) as Record<string, unknown>
}

/** Compiled, this module sits in dist/ next to the compiled runtime; run from source (tsx, tests), next to its sources. */
function findRuntimeEntry(): string {
  return ['index.js', 'index.ts']
    .map((file) => fileURLToPath(new URL(`../../runtime/${file}`, import.meta.url)))
    .find((path) => existsSync(path))!
}

/** Imports a bundle written to a temporary file, removed once loaded. */
async function importOnce(code: string): Promise<unknown> {
  const directory = mkdtempSync(join(tmpdir(), 'restmint-serve-'))
  const file = join(directory, 'server.mjs')
  try {
    writeFileSync(file, code)
    return await import(pathToFileURL(file).href)
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

/**
 * Where Node finds each package restmint depends on (the nearest
 * node_modules/ holding it, symlinks resolved), and its version.
 */
function listDependencies(runtime: string): { directory: string; version: string }[] {
  const restmint = findRestmintPackage(runtime)
  const { dependencies = {} } = readPackageJson(restmint) as { dependencies?: Record<string, string> }
  return Object.keys(dependencies)
    .sort()
    .flatMap((name) => {
      for (let directory = restmint; ; directory = dirname(directory)) {
        const installed = join(directory, 'node_modules', name)
        if (existsSync(join(installed, 'package.json'))) {
          return [{ directory: realpathSync(installed), version: String(readPackageJson(installed).version) }]
        }
        if (dirname(directory) === directory) return []
      }
    })
}

function findRestmintPackage(runtime: string): string {
  for (let directory = runtime; ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'package.json')) && readPackageJson(directory).name === 'restmint') return directory
    if (dirname(directory) === directory) throw new Error(`internal error: no restmint package.json above ${runtime}`)
  }
}

function readPackageJson(directory: string): { name?: unknown; version?: unknown; dependencies?: unknown } {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as object
}

/**
 * The bundle, and every file it is built from or imports (the files of
 * external packages, which it imports by path: it is loaded from the cache
 * directory, where Node would not find the packages the runtime depends on).
 */
async function bundle(entry: string, runtimeEntry: string): Promise<{ code: string; inputs: string[] }> {
  const { build } = await import('esbuild')
  const externals: string[] = []
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.10',
    logLevel: 'silent',
    plugins: [
      {
        name: 'restmint-runtime',
        setup(bundler) {
          bundler.onResolve({ filter: /^restmint\/runtime$/ }, () => ({ path: runtimeEntry }))
          bundler.onResolve({ filter: /^[^./]/ }, async ({ path, resolveDir, kind, pluginData }) => {
            const isBundled = BUNDLED_PACKAGES.some((name) => path === name || path.startsWith(`${name}/`))
            if (isBundled || pluginData === RESOLVING) return undefined
            const found = await bundler.resolve(path, { resolveDir, kind, pluginData: RESOLVING })
            // Node's own modules, and anything esbuild cannot place, stay as written.
            if (found.errors.length > 0 || found.external) return { path, external: true }
            externals.push(found.path)
            return { path: pathToFileURL(found.path).href, external: true }
          })
          // OpenAPI documents (megabytes for a large API) load as JSON modules on the first
          // /docs request: far cheaper than parsing them as object literals inside the bundle.
          bundler.onResolve({ filter: /\.json$/ }, (args) => ({
            path: pathToFileURL(join(args.resolveDir, args.path)).href,
            external: true,
          }))
        },
      },
    ],
  })
  return { code: result.outputFiles[0]!.text, inputs: [...Object.keys(result.metafile.inputs), ...externals] }
}
