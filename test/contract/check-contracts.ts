import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { checkDeclaredVersionChanges } from '../../generator/cli/check-declared-version-changes.js'
import { checkPublishedContracts } from '../../generator/cli/check-published-contracts.js'
import type { CliIo } from '../../generator/cli/cli-io.js'
import { hasErrors } from '../../generator/diagnostics/diagnostic.js'
import { loadProject } from '../../generator/load-project.js'
import { createContentCache, findCacheDirectory } from '../../generator/emit/content-cache.js'
import { renderProject } from '../../generator/render/render-project.js'
import { REPO } from '../support/copy-checkout.js'

/**
 * What `restmint check` says about contracts, in-process and without
 * formatting the generated files (formatting changes no contract): the
 * published documents against the manifest's, and consecutive versions
 * against their declared changes. A test file's projects live in one
 * temporary directory, removed after it.
 */
const cache = createContentCache(findCacheDirectory(REPO))
const workspace = mkdtempSync(join(tmpdir(), 'restmint-breaking-rules-'))
afterAll(() => rmSync(workspace, { recursive: true, force: true }))
let projects = 0

/** The generated files of a manifest, rendered but not formatted (formatting changes no contract). */
export async function renderContracts(cwd: string) {
  const project = await loadProject(cwd, 'resources.yaml')
  const { diagnostics, manifest } = await project.validated()
  // A scenario's manifest must be valid: `check` stops at the first error, before any contract.
  if (manifest === null || hasErrors(diagnostics)) throw new Error(diagnostics.map(({ message }) => message).join('\n'))
  return { project, files: renderProject(await project.model(), cache) }
}

/** What `restmint check` reports about contracts for `manifest` with v1 published as `published` (null: nothing published). */
export async function checkContracts(
  manifest: string,
  published: string | null,
): Promise<{ exitCode: number; report: string }> {
  const cwd = projectWith(manifest)
  if (published !== null) {
    mkdirSync(join(cwd, 'published'))
    writeFileSync(join(cwd, 'published', 'v1.openapi.json'), published)
  }
  const { project, files } = await renderContracts(cwd)
  let report = ''
  const io: CliIo = {
    cwd,
    stdout: (text) => void (report += text),
    stderr: (text) => void (report += text),
    color: false,
  }
  const { versions: derived } = await project.validated()
  const frozen = new Set(derived?.versions.filter((version) => version.frozen).map(({ name }) => name))
  const contracts = checkPublishedContracts('published', 'resources.yaml', files, io, true, frozen)
  const versions = await checkDeclaredVersionChanges(project, files, io)
  return { exitCode: Math.max(contracts, versions), report }
}

/** A fresh project directory holding `manifest`. */
export function projectWith(manifest: string): string {
  const cwd = join(workspace, String(projects++))
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(cwd, 'resources.yaml'), manifest)
  return cwd
}
