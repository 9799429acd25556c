import { existsSync, mkdirSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { UserError } from '../diagnostics/diagnostic.js'
import { describeEscapes } from '../emit/find-escaping-symlinks.js'
import { withLock } from '../emit/output-lock.js'
import {
  findLeftovers,
  findMovedAsideOutput,
  recoverKilledRuns,
  resolveOutputDirectory,
  stagingPaths,
} from '../emit/output-staging.js'
import { planOutput, type OutputPlan } from '../emit/plan-output.js'
import { writeOutput } from '../emit/write-output.js'
import { generateFiles } from '../generate.js'
import { loadProject } from '../load-project.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

/** How long a run waits for another writing the same output directory before it gives up. */
const LOCK_WAIT_MS = 60_000

export async function runGenerate(manifestFile: string, outDir: string, io: CliIo): Promise<number> {
  const started = performance.now()
  const result = await generateFiles(await loadProject(io.cwd, manifestFile), { out: outDir })
  if (reportDiagnostics(result, manifestFile, io, true) || !result.files) return 1
  const files = result.files
  const absoluteOut = resolveOutputDirectory(resolve(io.cwd, outDir))
  refuseEnclosingDirectory(absoluteOut, outDir, realpathSync(io.cwd))
  const { lock } = stagingPaths(absoluteOut)
  mkdirSync(dirname(absoluteOut), { recursive: true })
  // Runs started together wait for each other, and each puts its whole output in place: the last one stays.
  const holder = { command: 'restmint generate', directory: `${outDir}/` }
  const { plan, recovered } = withLock(lock, () => writeGenerated(absoluteOut, outDir, files), holder, LOCK_WAIT_MS)
  const milliseconds = Math.round(performance.now() - started)
  if (recovered) io.stdout('An earlier restmint generate was killed while replacing the output; put it back first.\n')
  io.stdout(
    `Generated ${outDir}/ from ${manifestFile}: ${plan.changed.size} written, ${plan.unchanged.length} unchanged, ` +
      `${plan.stale.length} removed (${milliseconds} ms).\n`,
  )
  for (const path of plan.changed.keys()) io.stdout(`  wrote    ${join(outDir, path)}\n`)
  for (const path of plan.stale) io.stdout(`  removed  ${join(outDir, path)}\n`)
  return 0
}

/** Puts back what a killed run moved aside, then writes what changed; holding the lock. */
function writeGenerated(
  absoluteOut: string,
  outDir: string,
  files: ReadonlyMap<string, string>,
): { plan: OutputPlan; recovered: boolean } {
  const leftovers = findLeftovers(absoluteOut)
  const recovered = findMovedAsideOutput(absoluteOut, leftovers, existsSync(absoluteOut)) !== null
  recoverKilledRuns(absoluteOut, leftovers, existsSync(absoluteOut))
  const plan = planOutput(absoluteOut, files)
  if (plan.escapes.length > 0) throw new UserError(`${describeEscapes(plan.escapes, outDir)} Nothing was written.`)
  if (plan.conflicts.length > 0) {
    throw new UserError(
      `refusing to overwrite files restmint did not write: ${plan.conflicts.map((path) => join(outDir, path)).join(', ')}; ` +
        `move them away or choose another --out directory. Nothing was written.`,
    )
  }
  if (plan.changed.size === 0 && plan.stale.length === 0) return { plan, recovered }
  try {
    writeOutput(absoluteOut, files, plan.owned)
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).code) throw error
    throw new UserError(`cannot write to ${outDir}/: ${(error as Error).message}; the previous output is unchanged`)
  }
  return { plan, recovered }
}

/**
 * The output directory is replaced as a whole on each change: one that holds the working directory (`--out .`,
 * `--out ..`) would take the project, and every process standing in it, along.
 */
function refuseEnclosingDirectory(absoluteOut: string, outDir: string, cwd: string): void {
  const fromOut = relative(absoluteOut, cwd)
  if (fromOut === '' || (!fromOut.startsWith('..') && !isAbsolute(fromOut))) {
    throw new UserError(
      `--out ${outDir} holds the working directory, but generate replaces its output directory as a whole; ` +
        `give the output a directory of its own, e.g. --out generated. Nothing was written.`,
    )
  }
}
