import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { listVersionDocuments, versionDocumentPath } from '../contract/version-documents.js'
import { formatDiagnostics } from '../diagnostics/format-diagnostics.js'
import { readPublishedDocument } from '../contract/published-contracts.js'
import type { CliIo } from './cli-io.js'
import type { Project } from '../load-project.js'

/**
 * Checks every removed field's and resource's `was` against the published
 * document of the version it describes (find-was-disagreements.ts); prints
 * the diagnostics at the `was` keys. No published directory, or one version:
 * nothing to check.
 */
export async function checkPublishedWas(
  project: Project,
  publishedDir: string,
  files: ReadonlyMap<string, string>,
  io: CliIo,
): Promise<number> {
  const directory = resolve(io.cwd, publishedDir)
  if (!existsSync(directory) || listVersionDocuments(files.keys()).length < 2) return 0
  // Only now: the manifest stages (yaml, ajv) stay unloaded for a single version.
  const { findWasDisagreements } = await import('../contract/find-was-disagreements.js')
  const { loaded } = await project.validated()
  const diagnostics = findWasDisagreements(loaded, await project.model(), {
    published: (version) => readPublishedDocument(directory, publishedDir, version),
    generated: (version) => JSON.parse(files.get(versionDocumentPath(version))!) as unknown,
  })
  if (diagnostics.length === 0) return 0
  io.stderr(formatDiagnostics(diagnostics, project.sources, { color: io.color }))
  return 1
}
