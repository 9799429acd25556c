import { rmSync, writeFileSync } from 'node:fs'

/**
 * Writes `path` as a new file: whatever is there (a leftover, or a symlink
 * that would redirect the write) is removed first, and the file is created
 * exclusively, so the write never goes through a link.
 */
export function writeNewFile(path: string, contents: string): void {
  rmSync(path, { force: true })
  writeFileSync(path, contents, { flag: 'wx' })
}
