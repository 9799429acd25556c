import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { UserError } from '../diagnostics/diagnostic.js'
import { planOutput } from '../emit/plan-output.js'
import { writeOutput } from '../emit/write-output.js'
import { generateFiles } from '../generate.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

export async function runGenerate(manifestFile: string, outDir: string, io: CliIo): Promise<number> {
  const started = performance.now()
  const result = await generateFiles({ manifestFile, cwd: io.cwd })
  if (reportDiagnostics(result, manifestFile, io, true) || !result.files) return 1
  const absoluteOut = resolve(io.cwd, outDir)
  const plan = planOutput(absoluteOut, result.files)
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
    throw new UserError(`cannot write to ${outDir}/: ${(error as Error).message}; the previous output is unchanged`)
  }
  const milliseconds = Math.round(performance.now() - started)
  io.stdout(
    `Generated ${outDir}/ from ${manifestFile}: ${plan.changed.size} written, ${plan.unchanged.length} unchanged, ` +
      `${plan.stale.length} removed (${milliseconds} ms).\n`,
  )
  for (const path of plan.changed.keys()) io.stdout(`  wrote    ${join(outDir, path)}\n`)
  for (const path of plan.stale) io.stdout(`  removed  ${join(outDir, path)}\n`)
  return 0
}
