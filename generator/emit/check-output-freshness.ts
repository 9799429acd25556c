import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hashManifest, OUTPUT_INDEX, readManifestHash } from './output-index.js'

/**
 * `fresh`: the output was generated from exactly this manifest. `stale`: from
 * other contents. `unknown`: its index records no manifest hash (written
 * before restmint recorded it). `missing`: there is no generated output (no
 * index). `no-manifest`: there is no manifest to compare with (an app that
 * ships only its generated code).
 */
export type OutputFreshness = 'fresh' | 'stale' | 'unknown' | 'missing' | 'no-manifest'

/** Compares the manifest's hash with the one the output records: one read and one hash, no rendering. */
export function checkOutputFreshness(manifestPath: string, outDir: string): OutputFreshness {
  let contents: Buffer
  try {
    contents = readFileSync(manifestPath)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'no-manifest'
    throw error
  }
  if (!existsSync(join(outDir, OUTPUT_INDEX))) return 'missing'
  const recorded = readManifestHash(outDir)
  if (recorded === null) return 'unknown'
  return recorded === hashManifest(contents) ? 'fresh' : 'stale'
}
