import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import esbuildPackage from 'esbuild/package.json' with { type: 'json' }
import type { FastifyInstance } from 'fastify'
import { hashFiles, hashKey, listFiles, type ContentCache } from '../render/content-cache.js'

export interface GeneratedServerModule {
  buildServer(options: { db: string; schema?: string; seed?: boolean; logger?: object }): Promise<FastifyInstance>
}

// A bundle depends on esbuild and on how this module drives it: both go into the cache key.
const BUNDLER_FINGERPRINT = hashKey(esbuildPackage.version, readFileSync(fileURLToPath(import.meta.url), 'utf8'))

/**
 * Loads a generated server.ts. The generated tree is TypeScript, and a
 * 100-resource API is ~300 modules: bundling it with esbuild into one module
 * (~0.2 s) starts far faster than loading each file through a TypeScript
 * loader. `restmint/runtime` is pointed at this CLI's own runtime; every other
 * package import stays external. Nothing is minified, so stack traces stay
 * readable; the validators are already ajv's compact output.
 *
 * The bundle is cached under the hash of every file in the entry's directory
 * tree (and of where it and the runtime are, which the bundle names), so an
 * unchanged tree starts without esbuild and a changed one is never served stale.
 */
export async function loadGeneratedServer(entry: string, cache: ContentCache): Promise<GeneratedServerModule> {
  // Compiled, this module sits in dist/ next to the compiled runtime; run from source (tsx, tests), next to its sources.
  const runtimeUrl = ['index.js', 'index.ts']
    .map((file) => new URL(`../../runtime/${file}`, import.meta.url))
    .find((url) => existsSync(url))!.href
  const tree = dirname(resolve(entry))
  const keyOf = (): string =>
    `${hashKey('serve-bundle', BUNDLER_FINGERPRINT, runtimeUrl, resolve(entry), hashFiles(listFiles(tree), tree))}.mjs`
  const key = keyOf()
  const cached = cache.pathOf(key)
  if (cached !== null) return (await import(pathToFileURL(cached).href)) as GeneratedServerModule
  const { code, inputs } = await bundle(entry, runtimeUrl)
  // A bundle that read a file from outside the tree would not be covered by the key, nor one built while
  // the tree changed (a generate running meanwhile): those are built every time instead.
  if (inputs.every((input) => !relative(tree, resolve(input)).startsWith('..')) && keyOf() === key) {
    cache.write(key, code)
    const written = cache.pathOf(key)
    if (written !== null) return (await import(pathToFileURL(written).href)) as GeneratedServerModule
  }
  const directory = mkdtempSync(join(tmpdir(), 'restmint-serve-'))
  const file = join(directory, 'server.mjs')
  try {
    writeFileSync(file, code)
    return (await import(pathToFileURL(file).href)) as GeneratedServerModule
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

async function bundle(entry: string, runtimeUrl: string): Promise<{ code: string; inputs: string[] }> {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.10',
    packages: 'external',
    logLevel: 'silent',
    plugins: [
      {
        name: 'restmint-runtime',
        setup(bundler) {
          bundler.onResolve({ filter: /^restmint\/runtime$/ }, () => ({ path: runtimeUrl, external: true }))
          // OpenAPI documents (megabytes for a large API) load as JSON modules: far
          // cheaper than parsing them as object literals inside the bundle.
          bundler.onResolve({ filter: /\.json$/ }, (args) => ({
            path: pathToFileURL(join(args.resolveDir, args.path)).href,
            external: true,
          }))
        },
      },
    ],
  })
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) }
}
