import { isAbsolute, relative, resolve } from 'node:path'
import type { Message } from 'esbuild'

/** A module's own files, or why it does not build. */
export type ModuleInputs =
  { readonly ok: true; readonly files: readonly string[] } | { readonly ok: false; readonly errors: string }

/**
 * The files `entry` is built from: itself and every file of the project it
 * imports, from esbuild's metafile (packages stay external: they change with
 * an install, not a save). Files under `ignored` (the generated output, which
 * `restmint dev` writes itself) are left out. A module that does not build
 * gets esbuild's messages instead, with their file:line:col and source line.
 */
export async function listModuleInputs(entry: string, cwd: string, ignored: string): Promise<ModuleInputs> {
  const { build, formatMessages } = await import('esbuild')
  try {
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: cwd,
      bundle: true,
      write: false,
      metafile: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    })
    const files = Object.keys(result.metafile.inputs)
      .map((input) => resolve(cwd, input))
      .filter((file) => {
        const inIgnored = relative(ignored, file)
        return inIgnored.startsWith('..') || isAbsolute(inIgnored)
      })
    return { ok: true, files }
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors
    if (errors === undefined) throw error
    return { ok: false, errors: (await formatMessages(errors, { kind: 'error', color: false })).join('') }
  }
}
