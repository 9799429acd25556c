import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { listVersionDocuments, versionDocumentPath } from '../contract/version-documents.js'
import { formatDiagnostics } from '../diagnostics/format-diagnostics.js'
import { parsePublishedDocument, publishedDocumentName } from './check-published-contracts.js'
import type { CliIo } from './cli-io.js'

/**
 * Checks every removed field's and resource's `was` against the published
 * document of the version it describes (find-was-disagreements.ts); prints
 * the diagnostics at the `was` keys. No published directory, or one version:
 * nothing to check.
 */
export async function checkPublishedWas(
  manifestFile: string,
  publishedDir: string,
  files: ReadonlyMap<string, string>,
  io: CliIo,
): Promise<number> {
  const directory = resolve(io.cwd, publishedDir)
  if (!existsSync(directory) || listVersionDocuments(files.keys()).length < 2) return 0
  // Only now: the manifest stages (yaml, ajv) stay unloaded for a single version.
  const [{ readManifest }, { loadManifest }, { validateManifest }, { buildModel }, { findWasDisagreements }] =
    await Promise.all([
      import('../generate.js'),
      import('../manifest/load-manifest.js'),
      import('../validate/validate-manifest.js'),
      import('../model/build-model.js'),
      import('../contract/find-was-disagreements.js'),
    ])
  const text = (await readManifest(io.cwd, manifestFile)).toString('utf8')
  const loaded = loadManifest(manifestFile, text)
  const { manifest } = validateManifest(loaded)
  if (manifest === null) throw new Error(`internal error: ${manifestFile} validated, but does not load`)
  const diagnostics = findWasDisagreements(loaded, buildModel(manifest, manifestFile), {
    published(version) {
      const name = publishedDocumentName(version)
      if (!existsSync(join(directory, name))) return null
      const label = join(publishedDir, name)
      return { label, document: parsePublishedDocument(readFileSync(join(directory, name), 'utf8'), label) }
    },
    generated: (version) => JSON.parse(files.get(versionDocumentPath(version))!) as unknown,
  })
  if (diagnostics.length === 0) return 0
  io.stderr(formatDiagnostics(diagnostics, new Map([[manifestFile, text]]), { color: io.color }))
  return 1
}
