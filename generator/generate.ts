import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Diagnostic } from './diagnostics/diagnostic.js'
import { hasErrors, UserError } from './diagnostics/diagnostic.js'
import { hashManifest, OUTPUT_INDEX, renderOutputIndex } from './emit/output-index.js'
import { shareVersionArtifacts } from './emit/share-version-artifacts.js'
import { generatorFingerprint } from './generator-fingerprint.js'
import { createContentCache, findCacheDirectory, hashKey, type ContentCache } from './render/content-cache.js'
import { startFormatWorkers } from './render/format-workers.js'

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
  const sources = new Map([[options.manifestFile, text]])
  const validate = async () => {
    const { loadManifest, validateManifest } = await loadStages()
    return validateManifest(loadManifest(options.manifestFile, text))
  }
  if (options.render === false) return { diagnostics: (await validate()).diagnostics, sources, files: null }
  const cache = createContentCache(findCacheDirectory(options.cwd))
  // An unchanged manifest skips every stage below (~0.4 s for 100 resources) for the result they gave before.
  const resultKey = hashKey('generate', fingerprint(), options.manifestFile, text)
  let result = readCachedResult(cache, resultKey)
  if (!result) {
    const workers = startFormatWorkers()
    try {
      const { manifest, diagnostics } = await validate()
      if (!manifest || hasErrors(diagnostics)) return { diagnostics, sources, files: null }
      const { buildModel, renderProject, startFormatting } = await loadStages()
      const formatting = startFormatting(cache, workers)
      const rendered = renderProject(buildModel(manifest, options.manifestFile), cache, formatting.add)
      result = { diagnostics, files: [...(await formatting.finish(rendered))] }
    } finally {
      await workers?.stop()
    }
    cache.write(resultKey, JSON.stringify(result))
  }
  const files = shareVersionArtifacts(new Map(result.files))
  files.set(OUTPUT_INDEX, renderOutputIndex(options.manifestFile, hashManifest(bytes), files.keys()))
  return { diagnostics: result.diagnostics, sources, files }
}

/** The stages, imported when they run: a cached result needs none of their packages (yaml, ajv, handlebars). */
async function loadStages() {
  const [{ loadManifest }, { validateManifest }, { buildModel }, { renderProject }, { startFormatting }] =
    await Promise.all([
      import('./manifest/load-manifest.js'),
      import('./validate/validate-manifest.js'),
      import('./model/build-model.js'),
      import('./render/render-project.js'),
      import('./render/format-files.js'),
    ])
  return { loadManifest, validateManifest, buildModel, renderProject, startFormatting }
}

/** What the stages gave for a valid manifest (warnings included), without the output index. */
interface CachedResult {
  readonly diagnostics: readonly Diagnostic[]
  readonly files: readonly (readonly [string, string])[]
}

function readCachedResult(cache: ContentCache, key: string): CachedResult | null {
  const cached = cache.read(key)
  return cached === null ? null : (JSON.parse(cached) as CachedResult)
}

let fingerprintOfThisProcess: string | undefined
/** Computed once a process: restmint's code does not change under it. */
function fingerprint(): string {
  fingerprintOfThisProcess ??= generatorFingerprint()
  return fingerprintOfThisProcess
}

export async function readManifest(cwd: string, manifestFile: string): Promise<Buffer> {
  try {
    return await readFile(resolve(cwd, manifestFile))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new UserError(`cannot read the manifest ${manifestFile} (${reason}); pass its path with --manifest <file>`)
  }
}
