import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { doNotEditNotice } from './do-not-edit-notice.js'

/**
 * `.restmint-files` in the output directory lists the files restmint wrote
 * there. Only those are ever overwritten or removed; anything else in the
 * directory belongs to the user.
 */
export const OUTPUT_INDEX = '.restmint-files'

/**
 * The index also records the manifest's hash: `restmint serve` compares it
 * with the manifest to refuse output that is stale, without rendering.
 */
export function renderOutputIndex(manifestFile: string, manifestHash: string, paths: Iterable<string>): string {
  return [
    `# ${doNotEditNotice(manifestFile)}`,
    '# The files restmint wrote here. It removes them when they are no longer generated',
    '# and never touches any other file in this directory.',
    `${MANIFEST_HASH_PREFIX}${manifestHash}`,
    ...[...paths].filter((path) => path !== OUTPUT_INDEX),
    '',
  ].join('\n')
}

const MANIFEST_HASH_PREFIX = '# manifest sha256: '

/** The hash the index records for manifest contents. */
export function hashManifest(contents: Uint8Array): string {
  return createHash('sha256').update(contents).digest('hex')
}

/** The manifest hash an existing index records; null when there is no index or it records none. */
export function readManifestHash(outDir: string): string | null {
  let text: string
  try {
    text = readFileSync(join(outDir, OUTPUT_INDEX), 'utf8')
  } catch {
    return null
  }
  const line = text.split('\n').find((candidate) => candidate.startsWith(MANIFEST_HASH_PREFIX))
  const hash = line?.slice(MANIFEST_HASH_PREFIX.length)
  return hash !== undefined && /^[0-9a-f]{64}$/.test(hash) ? hash : null
}

/** The paths listed by an existing index; empty when there is none. */
export function readOutputIndex(outDir: string): string[] {
  let text: string
  try {
    text = readFileSync(join(outDir, OUTPUT_INDEX), 'utf8')
  } catch {
    return []
  }
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#') && isSafeRelativePath(line))
}

/** Guards against an edited index pointing outside the output directory. */
export function isSafeRelativePath(path: string): boolean {
  return !path.startsWith('/') && !path.includes('\\') && path.split('/').every((part) => part !== '..' && part !== '')
}
