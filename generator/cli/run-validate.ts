import { generateFiles } from '../generate.js'
import { loadProject } from '../load-project.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

export async function runValidate(manifestFile: string, io: CliIo): Promise<number> {
  const result = await generateFiles(await loadProject(io.cwd, manifestFile), { render: false })
  if (reportDiagnostics(result, manifestFile, io)) return 1
  io.stdout(`${manifestFile} is valid.\n`)
  return 0
}
