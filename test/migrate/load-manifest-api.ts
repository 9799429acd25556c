import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { loadGeneratedServer } from '../../generator/cli/load-generated-server.js'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { createContentCache, findCacheDirectory, hashKey } from '../../generator/emit/content-cache.js'
import { renderProject } from '../../generator/render/render-project.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'
import type { ServerOptions } from '../../runtime/api/build-api-server.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import { REPO } from '../support/copy-checkout.js'
import { injectJson } from '../support/inject-json.js'
import { openTestStorage, type Dialect, type TestStorage } from '../support/test-storage.js'

/** What a manifest's generated tree gives: its table definitions, and its server. */
export interface ManifestApi {
  readonly tables: readonly TableDefinition[]
  buildServer(options: ServerOptions): Promise<FastifyInstance>
}

// serve's bundles go to this checkout's cache: vitest loads those itself (vitest.config.ts), runtime sources included.
const cacheDirectory = findCacheDirectory(REPO)
const cache = createContentCache(cacheDirectory)
/** The generated trees, beside (not in) the content cache, whose entries are files. */
const TREES = join(cacheDirectory ?? join(REPO, 'node_modules', '.cache', 'restmint'), '..', 'restmint-test-trees')
const loaded = new Map<string, Promise<ManifestApi>>()

/**
 * The API generated from a manifest text, loaded as `restmint serve` loads a
 * generated tree (loadGeneratedServer). The files are rendered but not
 * formatted (formatting changes no behaviour and costs prettier's time), and
 * each manifest text is generated once per test file, so dialects share it.
 */
export function loadManifestApi(text: string): Promise<ManifestApi> {
  let api = loaded.get(text)
  if (api === undefined) {
    api = generate(text)
    loaded.set(text, api)
  }
  return api
}

async function generate(text: string): Promise<ManifestApi> {
  const { manifest, diagnostics } = validateManifest(loadManifest('resources.yaml', text))
  if (manifest === null) throw new Error(diagnostics.map((diagnostic) => diagnostic.message).join('\n'))
  const model = buildModel(manifest, 'resources.yaml')
  const tree = writeTree(renderProject(model, cache))
  // Loaded once imported: the bundle reads its OpenAPI documents from the tree at import time.
  const server = (await loadGeneratedServer(join(tree, 'server.ts'), cache)) as unknown as Pick<
    ManifestApi,
    'buildServer'
  >
  return {
    tables: model.resources.map((resource) => resource.definition),
    buildServer: (options) => server.buildServer(options),
  }
}

// Trees not used for this long are removed, at most once a process.
const TREE_LIFETIME_MS = 24 * 60 * 60 * 1000
let treesPruned = false

/**
 * Writes `files` into a directory of the cache named after their hash, kept:
 * serve's bundle of a tree is cached under the tree's path and contents, so
 * the next run of a test with the same manifest and generator loads the
 * bundle without esbuild. Written beside it and renamed into place, so a
 * worker generating the same tree meanwhile never sees half of it.
 */
function writeTree(files: ReadonlyMap<string, string>): string {
  const trees = join(TREES, '..')
  const tree = join(TREES, hashKey(...[...files].flat()).slice(0, 32))
  if (!treesPruned) {
    treesPruned = true
    pruneTrees()
  }
  if (existsSync(tree)) {
    const now = new Date()
    utimesSync(tree, now, now)
    return tree
  }
  mkdirSync(TREES, { recursive: true })
  const staged = mkdtempSync(join(trees, 'manifest-api-staged-'))
  try {
    for (const [path, contents] of files) {
      mkdirSync(dirname(join(staged, path)), { recursive: true })
      writeFileSync(join(staged, path), contents)
    }
    renameSync(staged, tree)
  } catch (error) {
    // Another worker renamed the same tree into place first.
    if (!existsSync(tree)) throw error
  } finally {
    rmSync(staged, { recursive: true, force: true })
  }
  return tree
}

function pruneTrees(): void {
  if (!existsSync(TREES)) return
  for (const name of readdirSync(TREES)) {
    const tree = join(TREES, name)
    if (Date.now() - statSync(tree).mtimeMs > TREE_LIFETIME_MS) rmSync(tree, { recursive: true, force: true })
  }
}

/**
 * Serves the API of a manifest text on `dialect` for the enclosing describe
 * block (a storage of its own, opened before its tests and closed after
 * them); returns a JSON request to it.
 */
export function serveManifestApi(
  text: string,
  dialect: Dialect,
): (options: InjectOptions) => ReturnType<typeof injectJson> {
  let app: FastifyInstance | undefined
  let storage: TestStorage | undefined
  beforeAll(async () => {
    const api = await loadManifestApi(text)
    storage = await openTestStorage(dialect, api.tables)
    app = await api.buildServer({ storage: storage.storage, docs: false })
  }, 30_000)
  afterAll(async () => {
    await app?.close()
    await storage?.dispose()
  })
  return (options) => injectJson(app!, options)
}
