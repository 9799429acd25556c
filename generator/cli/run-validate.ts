import { generateFiles } from '../generate.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

export async function runValidate(manifestFile: string, io: CliIo): Promise<number> {
  const result = await generateFiles({ manifestFile, cwd: io.cwd, render: false })
  if (reportDiagnostics(result, manifestFile, io)) return 1
  io.stdout(`${manifestFile} is valid.\n`)
  return 0
}
