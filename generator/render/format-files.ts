import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as prettier from 'prettier'

/**
 * Fixed options, so output does not depend on the user's own prettier config
 * and stays byte-identical from machine to machine.
 */
const PRETTIER_OPTIONS: prettier.Options = {
  semi: false,
  singleQuote: true,
  trailingComma: 'all',
  printWidth: 100,
}

const PARSERS: Record<string, string> = { ts: 'typescript', js: 'babel', json: 'json', yaml: 'yaml' }

/**
 * Formats every file with prettier, reusing earlier results from a
 * content-hash cache: prettier costs 10–30 ms a file, and most files are
 * unchanged between runs. `cacheDirectory` null disables the cache.
 */
export async function formatFiles(
  files: ReadonlyMap<string, string>,
  cacheDirectory: string | null,
): Promise<Map<string, string>> {
  if (cacheDirectory) mkdirSync(cacheDirectory, { recursive: true })
  const formatted = new Map<string, string>()
  for (const [path, source] of files) {
    const parser = PARSERS[path.slice(path.lastIndexOf('.') + 1)]
    if (!parser) throw new Error(`internal error: no formatter for ${path}`)
    formatted.set(path, await formatCached(source, parser, cacheDirectory))
  }
  return formatted
}

async function formatCached(source: string, parser: string, cacheDirectory: string | null): Promise<string> {
  const key = createHash('sha256')
    .update(`${prettier.version}\0${parser}\0${JSON.stringify(PRETTIER_OPTIONS)}\0${source}`)
    .digest('hex')
  const cached = cacheDirectory ? readCache(join(cacheDirectory, key)) : null
  if (cached !== null) return cached
  const output = await prettier.format(source, { ...PRETTIER_OPTIONS, parser })
  if (cacheDirectory) writeFileSync(join(cacheDirectory, key), output)
  return output
}

function readCache(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
