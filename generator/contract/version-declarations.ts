import type { Diagnostic } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import { findKeyRange } from '../manifest/source-ranges.js'
import type { DerivedVersions } from '../versions/derive-versions.js'
import type { VersionChange } from '../versions/version-change.js'
import { checkDeclaredChanges } from './check-declared-changes.js'
import type { ContractFinding } from './contract-finding.js'
import { isDeprecatedDocument, isDeprecationSignal } from './is-deprecation-signal.js'
import { listVersionDocuments, versionDocumentPath } from './version-documents.js'

/** Consecutive versions' generated documents against the changes the newer one declares. */
export interface VersionDeclarations {
  readonly pairs: readonly {
    readonly older: string
    readonly newer: string
    /** How many changes the newer version declares. */
    readonly declared: number
    /** Breaking differences no declared change explains. */
    readonly undeclared: readonly ContractFinding[]
    /** How many declared changes the difference does not show (each in `notInTheDiff`). */
    readonly unseen: number
  }[]
  /** VERSION_CHANGE_NOT_BREAKING errors, at the declared changes the difference does not show. */
  readonly notInTheDiff: readonly Diagnostic[]
}

/**
 * Compares each pair of consecutive versions' generated OpenAPI documents
 * (`files`, by output path): every breaking difference must be a change the
 * newer version declares, and every declared change must show in the
 * difference. An older version's deprecation is no difference to declare.
 */
export function checkVersionDeclarations(
  loaded: LoadedManifest,
  { versions: derived }: DerivedVersions,
  files: ReadonlyMap<string, string>,
): VersionDeclarations {
  const versions = listVersionDocuments(files.keys())
  const document = (version: string) => JSON.parse(files.get(versionDocumentPath(version))!) as unknown
  const notInTheDiff: Diagnostic[] = []
  const pairs = versions.slice(1).map((newer, index) => {
    const older = versions[index]!
    const changes = derived.find((version) => version.name === newer)?.changes ?? []
    const olderFrozen = derived.find((version) => version.name === older)?.frozen ?? false
    const olderDocument = document(older)
    const report = checkDeclaredChanges(olderDocument, document(newer), changes, { olderFrozen })
    const undeclared = isDeprecatedDocument(olderDocument)
      ? report.undeclared.filter((finding) => !isDeprecationSignal(finding))
      : report.undeclared
    for (const change of report.unseen) {
      notInTheDiff.push({
        code: 'VERSION_CHANGE_NOT_BREAKING',
        severity: 'error',
        message:
          `${describeChange(change)} is not a breaking difference between ${older} and ${newer}` +
          ` (an addition no client notices stays in the version); remove the entry, or make the change`,
        file: loaded.file,
        ...findKeyRange(loaded.document, ['versions', newer, 'changes', changes.indexOf(change)]),
      })
    }
    return { older, newer, declared: changes.length, undeclared, unseen: report.unseen.length }
  })
  return { pairs, notInTheDiff }
}

/** `rename_field posts.body → content` */
export function describeChange(change: VersionChange): string {
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
    case 'add_resource':
      return `add_resource ${change.resource}`
    case 'add_aggregate':
      return `add_aggregate ${change.resource}`
    case 'add_soft_delete':
      return `add_soft_delete ${change.resource}`
    case 'change_access':
      return `change_access ${change.resource} ${change.operation}`
  }
}
