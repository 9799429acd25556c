import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Every file under `root` (relative path → contents), sorted; empty when root is missing. */
export function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (relative: string): void => {
    const absolute = join(root, relative)
    for (const entry of readdirSync(absolute).sort()) {
      const path = relative ? `${relative}/${entry}` : entry
      if (statSync(join(root, path)).isDirectory()) walk(path)
      else files.set(path, readFileSync(join(root, path), 'utf8'))
    }
  }
  try {
    walk('')
  } catch {
    return new Map()
  }
  return files
}
