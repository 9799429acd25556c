import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { declaringChangeKind } from '../contract/check-declared-changes.js'
import { formatBreakingFinding, formatFinding, type ContractFinding } from '../contract/contract-finding.js'
import { comparePublishedContracts } from '../contract/published-contracts.js'
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
): number {
  const directory = resolve(io.cwd, publishedDir)
  if (!existsSync(directory)) return 0
  const versions = listVersionDocuments(files.keys())
  let exitCode = 0
  for (const comparison of comparePublishedContracts(directory, publishedDir, files)) {
    const { version, label } = comparison
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

/** `2 PATH_ADDED, 3 REQUEST_FIELD_ADDED` */
function countByRule(findings: readonly ContractFinding[]): string {
  const counts = new Map<string, number>()
  for (const { rule } of findings) counts.set(rule, (counts.get(rule) ?? 0) + 1)
  return [...counts].map(([rule, count]) => `${count} ${rule}`).join(', ')
}
