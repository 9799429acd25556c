import { join, resolve } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { describeEscapes } from '../emit/find-escaping-symlinks.js'
import { OUTPUT_JOURNAL } from '../emit/output-journal.js'
import { planOutput } from '../emit/plan-output.js'
import { generateFiles } from '../generate.js'
import { loadProject, type Project } from '../load-project.js'
import { checkDeclaredVersionChanges } from './check-declared-version-changes.js'
import { checkPublishedContracts } from './check-published-contracts.js'
import { checkPublishedWas } from './check-published-was.js'
import type { CliIo } from './cli-io.js'
import { compareWithLatestMigration, describeMissingMigration } from '../migrate/compare-with-latest-migration.js'
import { reportDiagnostics } from './report-diagnostics.js'

/**
 * Regenerates in memory and compares with the output directory, each
 * published contract and the `was` of what newer versions removed from it
 * (when the published directory exists), consecutive
 * versions with what they declare, then the manifest's storage model with the
 * latest migration's snapshot (when the migrations directory exists); writes nothing.
 */
export async function runCheck(
  manifestFile: string,
  outDir: string,
  io: CliIo,
  migrationsDir = 'migrations',
  publishedDir = 'published',
): Promise<number> {
  // Read once: every check below takes the same manifest, validated and modelled at most once.
  const project = await loadProject(io.cwd, manifestFile)
  const result = await generateFiles(project)
  if (reportDiagnostics(result, manifestFile, io) || !result.files) return 1
  const output = checkOutput(manifestFile, outDir, result.files, io)
  const contracts = checkPublishedContracts(publishedDir, manifestFile, result.files, io)
  const removals = await checkPublishedWas(project, publishedDir, result.files, io)
  const versions = await checkDeclaredVersionChanges(project, result.files, io)
  return Math.max(output, contracts, removals, versions, await checkMigrations(project, migrationsDir, io))
}

function checkOutput(manifestFile: string, outDir: string, files: ReadonlyMap<string, string>, io: CliIo): number {
  const plan = planOutput(resolve(io.cwd, outDir), files)
  if (plan.escapes.length > 0) {
    io.stderr(`${describeEscapes(plan.escapes, outDir)}\n`)
    return 1
  }
  const problems = plan.changed.size + plan.stale.length
  if (problems === 0 && !plan.interrupted && plan.leftovers.length === 0) {
    io.stdout(`${outDir}/ is up to date with ${manifestFile} (${plan.unchanged.length} files).\n`)
    return 0
  }
  if (plan.interrupted) {
    const state =
      plan.interrupted.phase === 'committing'
        ? 'it was killed while putting new files in place, so the output mixes old and new files'
        : 'it was killed while staging new files; the old output is in place'
    io.stderr(
      `${outDir}/ holds an interrupted restmint generate (${join(outDir, OUTPUT_JOURNAL)}): ${state}. ` +
        `The next restmint generate finishes or undoes it.\n`,
    )
  }
  for (const path of plan.leftovers) io.stderr(`leftover: ${join(outDir, path)} (from an interrupted run)\n`)
  if (problems > 0) {
    io.stderr(
      `${outDir}/ is stale: ${problems} file${problems === 1 ? ' differs' : 's differ'} from what ${manifestFile} generates.\n`,
    )
  }
  for (const path of plan.missing) io.stderr(`missing: ${join(outDir, path)}\n`)
  for (const [path, contents] of plan.changed) {
    const previous = plan.previous.get(path)
    if (previous === undefined) continue
    io.stderr(`changed: ${join(outDir, path)}\n`)
    io.stderr(shortDiff(join(outDir, path), previous, contents))
  }
  for (const path of plan.stale) io.stderr(`extra:   ${join(outDir, path)} (no longer generated)\n`)
  io.stderr(`Fix: restmint generate --manifest ${manifestFile} --out ${outDir}\n`)
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
  io.stderr(`${describeMissingMigration(comparison, manifestFile, migrationsDir)}\n`)
  return 1
}

const MAX_DIFF_LINES = 40

function shortDiff(path: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 2 })
  const lines = patch.split('\n').filter((line) => !line.startsWith('====='))
  const shown = lines.slice(0, MAX_DIFF_LINES)
  if (lines.length > MAX_DIFF_LINES) shown.push(`… ${lines.length - MAX_DIFF_LINES} more diff lines`)
  return shown.join('\n').replace(/\n*$/, '\n')
}
