import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { formatBreakingFinding, formatFinding } from '../contract/contract-finding.js'
import { comparePublishedContract } from '../contract/compare-published-contract.js'
import { isDeprecatedDocument } from '../contract/is-deprecation-signal.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { listVersionDocuments, nextMajorVersion, versionDocumentPath } from '../contract/version-documents.js'
import type { CliIo } from './cli-io.js'

const PUBLISHED_DOCUMENT = /^(v\d+)\.openapi\.json$/

/** Where `restmint publish` records a version's contract, relative to the published directory. */
export function publishedDocumentName(version: string): string {
  return `${version}.openapi.json`
}

/** A published document as data; a file that is not JSON is a user error naming the way back. */
export function parsePublishedDocument(text: string, label: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UserError(
      `${label} is not valid JSON (${(error as Error).message}); restore it from version control, ` +
        `or delete it and run restmint publish again`,
    )
  }
}

/**
 * Compares each published version's OpenAPI document with the one the manifest
 * generates now (`files`, rendered once by `check`): a breaking difference, or
 * a published version the manifest dropped, fails; an additive one passes with
 * the command that records it. No published directory: nothing to compare.
 */
export function checkPublishedContracts(
  publishedDir: string,
  manifestFile: string,
  files: ReadonlyMap<string, string>,
  io: CliIo,
): number {
  const directory = resolve(io.cwd, publishedDir)
  if (!existsSync(directory)) return 0
  const versions = listVersionDocuments(files.keys())
  let exitCode = 0
  for (const name of readdirSync(directory).sort()) {
    const version = PUBLISHED_DOCUMENT.exec(name)?.[1]
    if (version === undefined) continue
    const label = join(publishedDir, name)
    const current = files.get(versionDocumentPath(version))
    if (current === undefined) {
      io.stderr(
        `${label}: ${version} is published, but ${manifestFile} no longer lists it under versions:; ` +
          `a published version is served until its sunset has passed: add ${version} back to versions:\n`,
      )
      exitCode = 1
      continue
    }
    const published = readFileSync(join(directory, name), 'utf8')
    if (published === current) {
      io.stdout(`${label} matches what ${manifestFile} generates for ${version}.\n`)
      continue
    }
    const findings = comparePublishedContract(parsePublishedDocument(published, label), JSON.parse(current))
    const breaking = findings.filter(({ severity }) => severity === 'breaking')
    for (const finding of breaking)
      io.stderr(`${label}: ${formatBreakingFinding(finding, nextMajorVersion(versions))}\n`)
    if (breaking.length > 0) {
      exitCode = 1
      continue
    }
    for (const finding of findings) io.stdout(`${label}: ${formatFinding(finding)}\n`)
    const quiet = isDeprecatedDocument(JSON.parse(current)) ? 'its deprecation and descriptions' : 'descriptions'
    const what = findings.length === 0 ? `differs only in ${quiet}` : 'has additive changes only'
    io.stdout(`${label}: ${version} ${what}; run \`restmint publish ${version}\` to record it\n`)
  }
  return exitCode
}
