import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { loadGeneratedServer } from '../../generator/cli/load-generated-server.js'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { createContentCache, findCacheDirectory } from '../../generator/render/content-cache.js'
import { renderProject } from '../../generator/render/render-project.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'
import type { ServerOptions } from '../../runtime/api/build-api-server.js'
import type { TableDefinition } from '../../runtime/contract/table-definition.js'
import { REPO } from '../support/copy-checkout.js'

/** What a manifest's generated tree gives: its table definitions, and its server. */
export interface ManifestApi {
  readonly tables: readonly TableDefinition[]
  buildServer(options: ServerOptions): Promise<FastifyInstance>
}

// serve's bundles go to this checkout's cache: vitest loads those itself (vitest.config.ts), runtime sources included.
const cache = createContentCache(findCacheDirectory(REPO))
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
  const tree = mkdtempSync(join(tmpdir(), 'restmint-manifest-api-'))
  let server: Pick<ManifestApi, 'buildServer'>
  try {
    for (const [path, contents] of renderProject(model, cache)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true })
      writeFileSync(join(tree, path), contents)
    }
    // Loaded once imported: the bundle reads its OpenAPI documents from the tree at import time.
    server = (await loadGeneratedServer(join(tree, 'server.ts'), cache)) as unknown as typeof server
  } finally {
    rmSync(tree, { recursive: true, force: true })
  }
  return {
    tables: model.resources.map((resource) => resource.definition),
    buildServer: (options) => server.buildServer(options),
  }
}
