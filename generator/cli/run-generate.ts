import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { UserError } from '../diagnostics/diagnostic.js'
import { describeEscapes } from '../emit/find-escaping-symlinks.js'
import { withOutputLock } from '../emit/output-lock.js'
import { OUTPUT_JOURNAL, readJournal, recoverInterruptedWrite } from '../emit/output-journal.js'
import { planOutput, type OutputPlan } from '../emit/plan-output.js'
import { writeOutput } from '../emit/write-output.js'
import { generateFiles } from '../generate.js'
import { loadProject } from '../load-project.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

export async function runGenerate(manifestFile: string, outDir: string, io: CliIo): Promise<number> {
  const started = performance.now()
  const result = await generateFiles(await loadProject(io.cwd, manifestFile))
  if (reportDiagnostics(result, manifestFile, io, true) || !result.files) return 1
  const files = result.files
  const absoluteOut = resolve(io.cwd, outDir)
  const { plan, recovered } = withOutputLock(absoluteOut, () => {
    // A killed run is finished or undone first, so this one starts from a whole tree.
    const before = planOutput(absoluteOut, files)
    refuseEscapes(before, outDir)
    if (before.interrupted) recoverInterruptedWrite(absoluteOut, before.interrupted)
    const plan = before.interrupted ? planOutput(absoluteOut, files) : before
    refuseEscapes(plan, outDir)
    if (plan.conflicts.length > 0) {
      throw new UserError(
        `refusing to overwrite files restmint did not write: ${plan.conflicts.map((path) => join(outDir, path)).join(', ')}; ` +
          `move them away or choose another --out directory. Nothing was written.`,
      )
    }
    try {
      writeOutput(absoluteOut, plan)
    } catch (error) {
      if (!(error as NodeJS.ErrnoException).code) throw error
      const state =
        readJournal(absoluteOut) === null
          ? 'the previous output is unchanged'
          : `the new output is only partly in place (recorded in ${join(outDir, OUTPUT_JOURNAL)}); ` +
            'fix the cause and run restmint generate again to finish it'
      throw new UserError(`cannot write to ${outDir}/: ${(error as Error).message}; ${state}`)
    }
    return { plan, recovered: before.interrupted?.phase ?? null }
  })
  const milliseconds = Math.round(performance.now() - started)
  if (recovered !== null) {
    io.stdout(
      `An earlier restmint generate was interrupted; ${recovered === 'committing' ? 'finished' : 'undid'} its changes first.\n`,
    )
  }
  io.stdout(
    `Generated ${outDir}/ from ${manifestFile}: ${plan.changed.size} written, ${plan.unchanged.length} unchanged, ` +
      `${plan.stale.length} removed (${milliseconds} ms).\n`,
  )
  for (const path of plan.changed.keys()) io.stdout(`  wrote    ${join(outDir, path)}\n`)
  for (const path of plan.stale) io.stdout(`  removed  ${join(outDir, path)}\n`)
  for (const path of plan.leftovers) io.stdout(`  removed  ${join(outDir, path)} (left by an interrupted run)\n`)
  return 0
}

function refuseEscapes(plan: OutputPlan, outDir: string): void {
  if (plan.escapes.length > 0) throw new UserError(`${describeEscapes(plan.escapes, outDir)} Nothing was written.`)
}
