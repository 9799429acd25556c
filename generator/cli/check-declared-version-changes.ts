import { checkDeclaredChanges } from '../contract/check-declared-changes.js'
import { formatFinding } from '../contract/contract-finding.js'
import { isDeprecatedDocument, isDeprecationSignal } from '../contract/is-deprecation-signal.js'
import { listVersionDocuments, versionDocumentPath } from '../contract/version-documents.js'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { formatDiagnostics } from '../diagnostics/format-diagnostics.js'
import type { VersionChange } from '../versions/version-change.js'
import type { CliIo } from './cli-io.js'
import type { Project } from '../load-project.js'

/**
 * Compares each pair of consecutive versions' generated OpenAPI documents:
 * every breaking difference must be a change the newer version declares, and
 * every declared change must show in the difference. One version: nothing to do.
 */
export async function checkDeclaredVersionChanges(
  project: Project,
  files: ReadonlyMap<string, string>,
  io: CliIo,
): Promise<number> {
  const versions = listVersionDocuments(files.keys())
  if (versions.length < 2) return 0
  // Only now: the manifest stages (yaml, ajv) stay unloaded for a single version.
  const { listDeclaredChanges } = await import('../contract/declared-changes.js')
  const { loaded, versions: derived } = await project.validated()
  if (derived === null) throw new Error(`internal error: ${project.manifestFile} validated, but has no versions`)
  const declared = listDeclaredChanges(loaded, derived)
  const { manifestFile } = project
  const notInTheDiff: Diagnostic[] = []
  const document = (version: string) => JSON.parse(files.get(versionDocumentPath(version))!) as unknown
  let exitCode = 0
  for (const [index, newer] of versions.entries()) {
    const older = versions[index - 1]
    if (older === undefined) continue
    const changes = declared.byVersion.get(newer) ?? []
    const olderDocument = document(older)
    const report = checkDeclaredChanges(olderDocument, document(newer), changes)
    const undeclared = isDeprecatedDocument(olderDocument)
      ? report.undeclared.filter((finding) => !isDeprecationSignal(finding))
      : report.undeclared
    for (const finding of undeclared) {
      io.stderr(
        `undeclared breaking change between ${older} and ${newer}: ${formatFinding(finding)}; ` +
          `declare it in versions.${newer}.changes or undo it\n`,
      )
    }
    for (const change of report.unseen) {
      notInTheDiff.push({
        code: 'VERSION_CHANGE_NOT_BREAKING',
        severity: 'error',
        message:
          `${describeChange(change)} is not a breaking difference between ${older} and ${newer}` +
          ` (an addition no client notices stays in the version); remove the entry, or make the change`,
        file: manifestFile,
        ...declared.locate(newer, changes.indexOf(change)),
      })
    }
    if (undeclared.length + report.unseen.length > 0) exitCode = 1
    else
      io.stdout(
        `${older} → ${newer}: the breaking differences are the ${changes.length} declared in versions.${newer}.changes.\n`,
      )
  }
  io.stderr(formatDiagnostics(notInTheDiff, project.sources, { color: io.color }))
  return exitCode
}

/** `rename_field posts.body → content` */
function describeChange(change: VersionChange): string {
  switch (change.kind) {
    case 'rename_field':
      return `rename_field ${change.resource}.${change.from} → ${change.to}`
    case 'remove_field':
      return `remove_field ${change.resource}.${change.field}`
    case 'add_field':
      return `add_field ${change.resource}.${change.field}`
    case 'rename_resource':
      return `rename_resource ${change.from} → ${change.to}`
    case 'reroot_resource':
      return `reroot_resource ${change.resource} from ${change.fromParent}`
    case 'remove_resource':
      return `remove_resource ${change.resource}`
  }
}
