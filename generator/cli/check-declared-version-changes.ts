import { formatFinding } from '../contract/contract-finding.js'
import { listVersionDocuments } from '../contract/version-documents.js'
import { formatDiagnostics } from '../diagnostics/format-diagnostics.js'
import type { Project } from '../load-project.js'
import type { CliIo } from './cli-io.js'

/**
 * Prints how each pair of consecutive versions' generated OpenAPI documents
 * matches the changes the newer one declares (checkVersionDeclarations). One
 * version: nothing to do.
 */
export async function checkDeclaredVersionChanges(
  project: Project,
  files: ReadonlyMap<string, string>,
  io: CliIo,
): Promise<number> {
  if (listVersionDocuments(files.keys()).length < 2) return 0
  // Only now: the manifest stages (yaml, ajv) stay unloaded for a single version.
  const { checkVersionDeclarations } = await import('../contract/version-declarations.js')
  const { loaded, versions } = await project.validated()
  if (versions === null) throw new Error(`internal error: ${project.manifestFile} validated, but has no versions`)
  const { pairs, notInTheDiff } = checkVersionDeclarations(loaded, versions, files)
  let exitCode = 0
  for (const { older, newer, declared, undeclared, unseen } of pairs) {
    for (const finding of undeclared) {
      io.stderr(
        `undeclared breaking change between ${older} and ${newer}: ${formatFinding(finding)}; ` +
          `declare it in versions.${newer}.changes or undo it\n`,
      )
    }
    if (undeclared.length + unseen > 0) exitCode = 1
    else
      io.stdout(
        `${older} → ${newer}: the breaking differences are the ${declared} declared in versions.${newer}.changes.\n`,
      )
  }
  io.stderr(formatDiagnostics(notInTheDiff, project.sources, { color: io.color }))
  return exitCode
}
