import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { declaringChangeKind } from '../contract/check-declared-changes.js'
import { featureAddedBy } from '../contract/feature-added-by.js'
import { formatBreakingFinding, formatFinding, type ContractFinding } from '../contract/contract-finding.js'
import type { ContractRuleId } from '../contract/contract-rules.js'
import { collectionsOf, pathKey } from '../contract/path-key.js'
import { comparePublishedContracts, publishedDocumentName } from '../contract/published-contracts.js'
import { listVersionDocuments, nextMajorVersion } from '../contract/version-documents.js'
import type { CliIo } from './cli-io.js'

/**
 * Prints how each published version's OpenAPI document compares with the one
 * the manifest generates now (`files`, rendered once by `check`): a breaking
 * difference, or a published version the manifest dropped, fails; an additive
 * one passes with the command that records it. No published directory:
 * nothing to compare. Additive changes are counted by kind, and listed one by
 * one with `listAdditive`.
 */
export function checkPublishedContracts(
  publishedDir: string,
  manifestFile: string,
  files: ReadonlyMap<string, string>,
  io: CliIo,
  listAdditive = true,
  frozen: ReadonlySet<string> = new Set(),
): number {
  const directory = resolve(io.cwd, publishedDir)
  const comparisons = existsSync(directory) ? comparePublishedContracts(directory, publishedDir, files) : []
  const versions = listVersionDocuments(files.keys())
  let exitCode = 0
  for (const version of frozen) {
    if (comparisons.some((comparison) => comparison.version === version)) continue
    io.stderr(
      `${join(publishedDir, publishedDocumentName(version))}: ${version} is frozen, so it serves exactly its published ` +
        `contract, but it has none; run \`restmint publish ${version}\`, or remove "frozen"\n`,
    )
    exitCode = 1
  }
  for (const comparison of comparisons) {
    const { version, label } = comparison
    if (comparison.outcome === 'additive' && frozen.has(version) && comparison.findings.length > 0) {
      const next = versions[versions.indexOf(version) + 1]!
      const newFields = new Set(
        comparison.findings.flatMap(({ rule, resource, name }) =>
          rule === 'RESPONSE_FIELD_ADDED' ? [`${resource}.${name}`] : [],
        ),
      )
      for (const finding of comparison.findings) {
        const fix = keepOut(finding, newFields.has(`${finding.resource}.${finding.name}`), version, next)
        io.stderr(`${label}: ${version} is frozen: ${formatFinding(finding)}; ${fix}\n`)
      }
      exitCode = 1
      continue
    }
    switch (comparison.outcome) {
      case 'dropped':
        io.stderr(
          `${label}: ${version} is published, but ${manifestFile} no longer lists it under versions:; ` +
            `a published version is served until its sunset has passed: add ${version} back to versions:\n`,
        )
        exitCode = 1
        break
      case 'same':
        io.stdout(`${label} matches what ${manifestFile} generates for ${version}.\n`)
        break
      case 'breaking':
        for (const finding of comparison.findings)
          io.stderr(
            `${label}: ${formatBreakingFinding(finding, nextMajorVersion(versions), declaringChangeKind(finding, comparison.findings))}\n`,
          )
        exitCode = 1
        break
      case 'additive': {
        const { findings } = comparison
        if (listAdditive) for (const finding of findings) io.stdout(`${label}: ${formatFinding(finding)}\n`)
        const what =
          findings.length === 0
            ? `differs only in ${comparison.quiet}`
            : `has additive changes only${listAdditive ? '' : ` (${countByRule(findings)})`}`
        io.stdout(`${label}: ${version} ${what}; run \`restmint publish ${version}\` to record it\n`)
      }
    }
  }
  return exitCode
}

/**
 * How a frozen version leaves out an addition: the newer version declares
 * the resource new, or the field (`newField`: its records have it now, not
 * only a filter operator more); anything else (a constraint relaxed, a filter
 * operator on an old field) the newer version cannot have alone, so undo it.
 */
function keepOut(finding: ContractFinding, newField: boolean, version: string, next: string): string {
  const declare = (change: string) =>
    `declare \`${change}\` in versions.${next}.changes so ${version} leaves it out, or undo it`
  const feature = featureAddedBy(finding)
  if (feature) return declare(`${feature.kind}: { resource: ${feature.resource} }`)
  if (finding.rule === 'PATH_ADDED') {
    const collection = collectionsOf(pathKey(finding.operation, version)).at(-1)
    if (collection) return declare(`add_resource: { resource: ${collection} }`)
  }
  if (newField && ADDED_FIELD_RULES.has(finding.rule)) {
    return declare(`add_field: { resource: ${finding.resource}, field: ${finding.name} }`)
  }
  return `undo it: a frozen version serves exactly its published contract, so only newer versions may change (unfreeze ${version} to let it grow)`
}

/** Findings of a new field, in bodies or in the query parameters that name it. */
const ADDED_FIELD_RULES: ReadonlySet<ContractRuleId> = new Set([
  'REQUEST_FIELD_ADDED',
  'RESPONSE_FIELD_ADDED',
  'SORT_FIELD_ADDED',
  'QUERY_PARAMETER_ADDED',
  'FILTER_OPERATOR_ADDED',
])

/** `2 PATH_ADDED, 3 REQUEST_FIELD_ADDED` */
function countByRule(findings: readonly ContractFinding[]): string {
  const counts = new Map<string, number>()
  for (const { rule } of findings) counts.set(rule, (counts.get(rule) ?? 0) + 1)
  return [...counts].map(([rule, count]) => `${count} ${rule}`).join(', ')
}
