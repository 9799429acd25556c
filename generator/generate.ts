import { existsSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import type { Diagnostic } from './diagnostics/diagnostic.js'
import { hasErrors } from './diagnostics/diagnostic.js'
import { hashManifest, OUTPUT_INDEX, renderOutputIndex } from './emit/output-index.js'
import { shareVersionArtifacts } from './emit/share-version-artifacts.js'
import { generatorFingerprint } from './generator-fingerprint.js'
import type { Project } from './load-project.js'
import { createContentCache, findCacheDirectory, hashKey, type ContentCache } from './emit/content-cache.js'
import { startFormatWorkers } from './render/format-workers.js'
import { resolveAppModule } from './validate/resolve-app-module.js'

export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[]
  /** Manifest texts by file name, for rendering diagnostics with source lines. */
  readonly sources: ReadonlyMap<string, string>
  /** Output path → contents; null when the manifest has errors. */
  readonly files: ReadonlyMap<string, string> | null
  /** The manifest's `app:` (null without one), known without parsing the manifest again; absent when invalid. */
  readonly appModule?: string | null
}

/**
 * The whole pipeline, shared by `validate`, `generate` and `check`:
 * load → validate → build the model → render → format. Writes nothing.
 */
export async function generateFiles(
  project: Project,
  options: { render?: boolean; out?: string } = {},
): Promise<GenerateResult> {
  const { manifestFile, text, sources } = project
  if (options.render === false) return { diagnostics: (await project.validated()).diagnostics, sources, files: null }
  const cache = createContentCache(findCacheDirectory(project.cwd))
  // server.ts imports the app module relative to the output directory (`../src/app.js`).
  const manifestDirectory = dirname(resolve(project.cwd, manifestFile))
  // From the output directory, not the other way round: only this way can the manifest's directory be named
  // when the output is outside it (`--out /tmp/api`).
  const manifestFromOut = relative(resolve(project.cwd, options.out ?? 'generated'), manifestDirectory).replaceAll(
    sep,
    '/',
  )
  // An unchanged manifest skips every stage below (~0.4 s for 100 resources) for the result they gave before.
  const resultKey = hashKey('generate', fingerprint(), manifestFile, text, manifestFromOut)
  let result = readCachedResult(cache, resultKey)
  if (!result) {
    const workers = startFormatWorkers()
    try {
      const { manifest, diagnostics } = await project.validated()
      if (!manifest || hasErrors(diagnostics)) return { diagnostics, sources, files: null }
      const [{ renderProject }, { startFormatting }] = await Promise.all([
        import('./render/render-project.js'),
        import('./render/format-files.js'),
      ])
      const formatting = startFormatting(cache, workers)
      const rendered = renderProject(await project.model(), cache, formatting.add, { manifestFromOut })
      result = { diagnostics, files: [...(await formatting.finish(rendered))], appModule: manifest.app ?? null }
    } finally {
      await workers?.stop()
    }
    cache.write(resultKey, JSON.stringify(result))
  }
  // Outside the cached result: the module may have gone since (server.ts would import a missing file).
  if (result.appModule !== null && !existsSync(resolveAppModule(project.cwd, manifestFile, result.appModule))) {
    const [{ loaded }, { checkAppModuleFile }] = await Promise.all([
      project.validated(),
      import('./validate/check-app-module.js'),
    ])
    return {
      diagnostics: [...result.diagnostics, ...checkAppModuleFile(loaded, project.cwd)],
      sources,
      files: null,
      appModule: result.appModule,
    }
  }
  const files = shareVersionArtifacts(new Map(result.files))
  files.set(OUTPUT_INDEX, renderOutputIndex(manifestFile, hashManifest(project.bytes), files.keys()))
  return { diagnostics: result.diagnostics, sources, files, appModule: result.appModule }
}

/** What the stages gave for a valid manifest (warnings included), without the output index. */
interface CachedResult {
  readonly diagnostics: readonly Diagnostic[]
  readonly files: readonly (readonly [string, string])[]
  /** The manifest's `app:`; null without one. */
  readonly appModule: string | null
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
