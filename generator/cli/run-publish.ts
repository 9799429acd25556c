import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { declaringChangeKind } from '../contract/check-declared-changes.js'
import { formatBreakingFinding, formatFinding } from '../contract/contract-finding.js'
import { listVersionDocuments, nextMajorVersion, versionDocumentPath } from '../contract/version-documents.js'
import { temporaryPathOf } from '../emit/temporary-path.js'
import { writeNewFile } from '../emit/write-new-file.js'
import {
  comparePublishedContract,
  parsePublishedDocument,
  publishedDocumentName,
} from '../contract/published-contracts.js'
import type { CliIo } from './cli-io.js'
import { ensureFreshOutput } from './ensure-fresh-output.js'

export interface PublishOptions {
  readonly version: string
  readonly manifest: string
  readonly out: string
  readonly published: string
}

/**
 * Records a version's generated OpenAPI document as its published contract.
 * Over an earlier publication only additive differences are allowed; the file
 * is replaced by a rename, so it is always one whole document, old or new.
 */
export async function runPublish(options: PublishOptions, io: CliIo): Promise<number> {
  await ensureFreshOutput({ manifest: options.manifest, out: options.out, regenerate: false }, io)
  const outDir = resolve(io.cwd, options.out)
  const versions = existsSync(outDir)
    ? listVersionDocuments(readdirSync(outDir).map(versionDocumentPath)).filter((version) =>
        existsSync(join(outDir, versionDocumentPath(version))),
      )
    : []
  if (!versions.includes(options.version)) {
    const known = versions.length === 0 ? 'none is generated' : `the versions are ${versions.join(', ')}`
    io.stderr(`restmint publish: unknown version "${options.version}" in ${options.out}/; ${known}\n`)
    return 2
  }
  const current = readFileSync(join(outDir, versionDocumentPath(options.version)), 'utf8')
  const label = join(options.published, publishedDocumentName(options.version))
  const target = resolve(io.cwd, label)
  if (existsSync(target)) {
    const published = readFileSync(target, 'utf8')
    if (published === current) {
      io.stdout(`${label} is already what ${options.out}/ holds for ${options.version}; nothing to publish.\n`)
      return 0
    }
    const findings = comparePublishedContract(parsePublishedDocument(published, label), JSON.parse(current))
    const breaking = findings.filter(({ severity }) => severity === 'breaking')
    if (breaking.length > 0) {
      for (const finding of breaking)
        io.stderr(
          `${label}: ${formatBreakingFinding(finding, nextMajorVersion(versions), declaringChangeKind(finding, breaking))}\n`,
        )
      io.stderr(`restmint publish: ${options.version} is published and these changes break it; nothing written\n`)
      return 1
    }
    for (const finding of findings) io.stdout(`${label}: ${formatFinding(finding)}\n`)
  }
  mkdirSync(resolve(io.cwd, options.published), { recursive: true })
  const staged = temporaryPathOf(target)
  writeNewFile(staged, current)
  renameSync(staged, target)
  io.stdout(`published ${options.version}: ${label}\n`)
  return 0
}
