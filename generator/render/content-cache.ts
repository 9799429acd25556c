import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A content-addressed disk cache for expensive, pure steps (prettier, ajv
 * compilation): the key hashes everything the result depends on, so an entry
 * can never be stale, only unused.
 */
export interface ContentCache {
  read(key: string): string | null
  write(key: string, value: string): void
}

export function hashKey(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex')
}

/** A cache in `directory`, or one that stores nothing when it is null. */
export function createContentCache(directory: string | null): ContentCache {
  if (!directory) return { read: () => null, write: () => {} }
  mkdirSync(directory, { recursive: true })
  return {
    read(key) {
      try {
        return readFileSync(join(directory, key), 'utf8')
      } catch {
        return null
      }
    },
    write(key, value) {
      writeFileSync(join(directory, key), value)
    },
  }
}
