import { resolve } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { checkOutputFreshness } from '../emit/check-output-freshness.js'
import type { CliIo } from './cli-io.js'

/**
 * Before `serve`: refuses output that does not match the manifest, naming the
 * command that fixes it, or with `regenerate` (`serve --generate`) runs that
 * command first. Without a manifest file there is nothing to compare, and
 * the output is served as it is.
 */
export async function ensureFreshOutput(
  options: { manifest: string; out: string; regenerate: boolean },
  io: CliIo,
): Promise<void> {
  const freshness = checkOutputFreshness(resolve(io.cwd, options.manifest), resolve(io.cwd, options.out))
  if (freshness === 'fresh' || freshness === 'no-manifest') return
  if (options.regenerate) {
    // Loaded only here: serving fresh output never loads the generator.
    const { runGenerate } = await import('./run-generate.js')
    if ((await runGenerate(options.manifest, options.out, io)) !== 0) {
      throw new UserError(`${options.manifest} did not generate (see above); nothing is served`)
    }
    return
  }
  const why = {
    stale: `was generated from another version of ${options.manifest}`,
    unknown: `records no manifest hash (an older restmint wrote it), so it may not match ${options.manifest}`,
    missing: `holds no output generated from ${options.manifest}`,
  }[freshness]
  throw new UserError(
    `${options.out}/ ${why}; run restmint generate --manifest ${options.manifest} --out ${options.out}, ` +
      `or serve with --generate to regenerate first`,
  )
}
