import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { compareContracts } from './compare-contracts.js'
import type { ContractFinding } from './contract-finding.js'
import { isDeprecatedDocument, isDeprecationSignal } from './is-deprecation-signal.js'
import { versionDocumentPath } from './version-documents.js'

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
 * The published document of `version` in `directory` (named `publishedDir/…` in
 * messages, as the user gave it), parsed; null when the version is not published.
 */
export function readPublishedDocument(
  directory: string,
  publishedDir: string,
  version: string,
): { readonly label: string; readonly document: unknown } | null {
  const name = publishedDocumentName(version)
  if (!existsSync(join(directory, name))) return null
  const label = join(publishedDir, name)
  return { label, document: parsePublishedDocument(readFileSync(join(directory, name), 'utf8'), label) }
}

/**
 * The differences between a version's published contract and its document
 * as generated now. Deprecating a published version is how its clients are
 * told to move on, not a change of its contract: once the current document is
 * deprecated, the `meta` its bodies gain for it is left out.
 */
export function comparePublishedContract(published: unknown, current: unknown): ContractFinding[] {
  const findings = compareContracts(published, current)
  return isDeprecatedDocument(current) ? findings.filter((finding) => !isDeprecationSignal(finding)) : findings
}

/** One published version against what the manifest generates for it now. */
export type PublishedComparison = { readonly version: string; readonly label: string } & (
  | { readonly outcome: 'dropped' | 'same' }
  | { readonly outcome: 'breaking'; readonly findings: readonly ContractFinding[] }
  /** Additive findings only, or none (`quiet`: the documents differ in what no finding reports). */
  | { readonly outcome: 'additive'; readonly findings: readonly ContractFinding[]; readonly quiet: string }
)

/**
 * Compares each published version's OpenAPI document in `directory` with the
 * one generated now (`files`, by output path): the manifest dropped it, it is
 * the same, or it differs breakingly or additively only.
 */
export function comparePublishedContracts(
  directory: string,
  publishedDir: string,
  files: ReadonlyMap<string, string>,
): PublishedComparison[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name): PublishedComparison[] => {
      const version = PUBLISHED_DOCUMENT.exec(name)?.[1]
      if (version === undefined) return []
      const label = join(publishedDir, name)
      const current = files.get(versionDocumentPath(version))
      if (current === undefined) return [{ version, label, outcome: 'dropped' }]
      const published = readFileSync(join(directory, name), 'utf8')
      if (published === current) return [{ version, label, outcome: 'same' }]
      const findings = comparePublishedContract(parsePublishedDocument(published, label), JSON.parse(current))
      const breaking = findings.filter(({ severity }) => severity === 'breaking')
      if (breaking.length > 0) return [{ version, label, outcome: 'breaking', findings: breaking }]
      const quiet = isDeprecatedDocument(JSON.parse(current)) ? 'its deprecation and descriptions' : 'descriptions'
      return [{ version, label, outcome: 'additive', findings, quiet }]
    })
}
