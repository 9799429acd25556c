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
  const [{ checkVersionDeclarations }, { declaringChangeKind }] = await Promise.all([
    import('../contract/version-declarations.js'),
    import('../contract/check-declared-changes.js'),
  ])
  const { loaded, versions } = await project.validated()
  if (versions === null) throw new Error(`internal error: ${project.manifestFile} validated, but has no versions`)
  const { pairs, notInTheDiff } = checkVersionDeclarations(loaded, versions, files)
  let exitCode = 0
  for (const { older, newer, declared, undeclared, unseen } of pairs) {
    for (const finding of undeclared) {
      const kind = declaringChangeKind(finding, undeclared)
      const fix =
        kind === null
          ? `no change kind can declare it, so ${finding.fix}`
          : `declare it in versions.${newer}.changes (\`${kind}\`) or undo it`
      io.stderr(`undeclared breaking change between ${older} and ${newer}: ${formatFinding(finding)}; ${fix}\n`)
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
