import { readdirSync, rmdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Removes `directory` and every directory under it that holds no file,
 * deepest first; never a file, never through a symlink. Returns whether
 * `directory` itself is gone. For directories a run created and must not
 * leave behind.
 */
export function removeEmptyDirectories(directory: string): boolean {
  let entries
  try {
    entries = readdirSync(directory, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
  let empty = true
  for (const entry of entries) {
    if (entry.isDirectory() && removeEmptyDirectories(join(directory, entry.name))) continue
    empty = false
  }
  if (empty) rmdirSync(directory)
  return empty
}
