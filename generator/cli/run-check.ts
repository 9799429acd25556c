import { readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describeEscapes } from '../emit/find-escaping-symlinks.js'
import { resolveOutputDirectory } from '../emit/output-staging.js'
import { planOutput } from '../emit/plan-output.js'
import { loadProject, type Project } from '../load-project.js'
import { generateFiles } from '../generate.js'
import { listVersionDocuments } from '../contract/version-documents.js'
import { checkDeclaredVersionChanges } from './check-declared-version-changes.js'
import { checkPublishedContracts } from './check-published-contracts.js'
import { checkPublishedWas } from './check-published-was.js'
import type { CliIo } from './cli-io.js'
import { compareWithLatestMigration, describeMissingMigration } from '../migrate/compare-with-latest-migration.js'
import { describeLineCounts, diffFile } from './diff-file.js'
import { reportDiagnostics } from './report-diagnostics.js'
import { reportAppModule } from './report-app-module.js'

export interface CheckOptions {
  readonly migrationsDir: string
  readonly publishedDir: string
  /** Print each stale file's diff and every contract finding, not only one line each. */
  readonly diff: boolean
}

/**
 * Regenerates in memory and compares with the output directory, each
 * published contract and the `was` of what newer versions removed from it
 * (when the published directory exists), consecutive
 * versions with what they declare, then the manifest's storage model with the
 * latest migration's snapshot (when the migrations directory exists); writes nothing.
 *
 * The report goes to stdout, in order, success and failure alike, so a CI log
 * reads top to bottom (the exit code says whether it failed); a manifest that
 * does not validate stops the check with its diagnostics on stderr.
 */
export async function runCheck(
  manifestFile: string,
  outDir: string,
  io: CliIo,
  options: CheckOptions = { migrationsDir: 'migrations', publishedDir: 'published', diff: false },
): Promise<number> {
  // Read once: every check below takes the same manifest, validated and modelled at most once.
  const project = await loadProject(io.cwd, manifestFile)
  const result = await generateFiles(project, { out: outDir })
  if (reportDiagnostics(result, manifestFile, io) || !result.files) return 1
  // The checks below print findings on stderr and successes on stdout: one stream keeps them in order.
  const report: CliIo = { ...io, stderr: io.stdout }
  const output = checkOutput(manifestFile, outDir, result.files, io, options.diff)
  const frozen = await listFrozenVersions(project, result.files)
  const contracts = checkPublishedContracts(
    options.publishedDir,
    manifestFile,
    result.files,
    report,
    options.diff,
    frozen,
  )
  const removals = await checkPublishedWas(project, options.publishedDir, result.files, report)
  const versions = await checkDeclaredVersionChanges(project, result.files, report)
  const migrations = await checkMigrations(project, options.migrationsDir, io)
  // Only a manifest with `app:` is parsed again (for positions): a cached check stays without yaml.
  const appModule = result.appModule ? await reportAppModule(project, report) : 0
  return Math.max(output, contracts, removals, versions, migrations, appModule)
}

/** The versions declared `frozen`; only an older version can be, so one version needs no manifest stage loaded. */
async function listFrozenVersions(project: Project, files: ReadonlyMap<string, string>): Promise<Set<string>> {
  if (listVersionDocuments(files.keys()).length < 2) return new Set()
  const { versions } = await project.validated()
  return new Set(versions?.versions.filter(({ frozen }) => frozen).map(({ name }) => name))
}

/** One line per stale file (its diff too with `withDiffs`), then the command that fixes them. */
function checkOutput(
  manifestFile: string,
  outDir: string,
  files: ReadonlyMap<string, string>,
  io: CliIo,
  withDiffs: boolean,
): number {
  const absoluteOut = resolveOutputDirectory(resolve(io.cwd, outDir))
  const plan = planOutput(absoluteOut, files)
  if (plan.escapes.length > 0) {
    io.stdout(`${describeEscapes(plan.escapes, outDir)}\n`)
    return 1
  }
  const problems = plan.changed.size + plan.stale.length
  if (problems === 0 && plan.movedAside === null && plan.leftovers.length === 0) {
    io.stdout(`${outDir}/ is up to date with ${manifestFile} (${plan.unchanged.length} files).\n`)
    return 0
  }
  if (plan.movedAside !== null) {
    // Every file would be listed as missing, though none is lost.
    io.stdout(
      `${outDir}/ is missing: a restmint generate was killed while replacing it, and the previous output is whole ` +
        `in ${relative(io.cwd, plan.movedAside)}/; the next restmint generate puts it back and brings it up to date.\n` +
        `Fix: restmint generate --manifest ${manifestFile} --out ${outDir}\n`,
    )
    return 1
  }
  for (const { path } of plan.leftovers) {
    io.stdout(`leftover: ${relative(io.cwd, path)}/ (from a killed restmint generate)\n`)
  }
  if (problems > 0) {
    io.stdout(
      `${outDir}/ is stale: ${problems} file${problems === 1 ? ' differs' : 's differ'} from what ${manifestFile} generates.\n`,
    )
  }
  const describe = (label: string, path: string, before: string, after: string, note = ''): void => {
    const diff = diffFile(join(outDir, path), before, after)
    io.stdout(`${label} ${join(outDir, path)} (${note}${describeLineCounts(diff)})\n`)
    if (withDiffs) io.stdout(diff.patch)
  }
  for (const path of plan.missing) describe('missing:', path, '', plan.changed.get(path)!)
  for (const [path, contents] of plan.changed) {
    const previous = plan.previous.get(path)
    if (previous !== undefined) describe('changed:', path, previous, contents)
  }
  for (const path of plan.stale) {
    describe('extra:  ', path, readFileSync(join(absoluteOut, path), 'utf8'), '', 'no longer generated, ')
  }
  const diffHint = withDiffs || problems === 0 ? '' : ' (restmint check --diff shows the diffs)'
  io.stdout(`Fix: restmint generate --manifest ${manifestFile} --out ${outDir}${diffHint}\n`)
  return 1
}

/** Fails when the manifest's storage model is not what the migrations lead to: a migration is missing. */
async function checkMigrations(project: Project, migrationsDir: string, io: CliIo): Promise<number> {
  const { manifestFile } = project
  const comparison = await compareWithLatestMigration(migrationsDir, io.cwd, async () => {
    // Only now: the manifest stages (yaml, ajv) stay unloaded when generation was cached and nothing is migrated.
    const { buildStorageModel } = await import('../migrate/storage-model.js')
    return buildStorageModel(await project.model())
  })
  if (comparison === null) return 0
  if (comparison.changes.length === 0) {
    io.stdout(`${comparison.snapshotFile} matches the storage model of ${manifestFile}.\n`)
    return 0
  }
  io.stdout(`${describeMissingMigration(comparison, manifestFile, migrationsDir)}\n`)
  return 1
}
