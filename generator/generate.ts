import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Diagnostic } from './diagnostics/diagnostic.js'
import { hasErrors, UserError } from './diagnostics/diagnostic.js'
import { hashManifest, OUTPUT_INDEX, renderOutputIndex } from './emit/output-index.js'
import { loadManifest } from './manifest/load-manifest.js'
import { buildModel } from './model/build-model.js'
import { createContentCache, findCacheDirectory } from './render/content-cache.js'
import { formatFiles } from './render/format-files.js'
import { renderProject } from './render/render-project.js'
import { validateManifest } from './validate/validate-manifest.js'

export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[]
  /** Manifest texts by file name, for rendering diagnostics with source lines. */
  readonly sources: ReadonlyMap<string, string>
  /** Output path → contents; null when the manifest has errors. */
  readonly files: ReadonlyMap<string, string> | null
}

/**
 * The whole pipeline, shared by `validate`, `generate` and `check`:
 * load → validate → build the model → render → format. Writes nothing.
 *
 * @param manifestFile the manifest path as the user gave it (relative to cwd);
 *   diagnostics and file headers name it this way.
 */
export async function generateFiles(options: {
  manifestFile: string
  cwd: string
  render?: boolean
}): Promise<GenerateResult> {
  const bytes = await readManifest(options.cwd, options.manifestFile)
  const text = bytes.toString('utf8')
  const loaded = loadManifest(options.manifestFile, text)
  const sources = new Map([[options.manifestFile, text]])
  const { manifest, diagnostics } = validateManifest(loaded)
  if (!manifest || hasErrors(diagnostics) || options.render === false) {
    return { diagnostics, sources, files: null }
  }
  const model = buildModel(manifest, options.manifestFile)
  const cache = createContentCache(findCacheDirectory(options.cwd))
  const files = await formatFiles(renderProject(model, cache), cache)
  files.set(OUTPUT_INDEX, renderOutputIndex(model.manifestFile, hashManifest(bytes), files.keys()))
  return { diagnostics, sources, files }
}

async function readManifest(cwd: string, manifestFile: string): Promise<Buffer> {
  try {
    return await readFile(resolve(cwd, manifestFile))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new UserError(`cannot read the manifest ${manifestFile} (${reason}); pass its path with --manifest <file>`)
  }
}
