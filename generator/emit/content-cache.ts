import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { temporaryPathOf } from './temporary-path.js'

/**
 * A content-addressed disk cache for expensive, pure steps (prettier, ajv
 * compilation, the serve bundle): the key hashes everything the result
 * depends on, so an entry can never be stale, only unused.
 */
export interface ContentCache {
  read(key: string): string | null
  write(key: string, value: string): void
  /** Where the entry is on disk, for a caller that loads it as a file (a module); null when there is none. */
  pathOf(key: string): string | null
}

export function hashKey(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex')
}

/** Every file under `directory`, recursively, in a fixed order. */
export function listFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) return listFiles(path)
      return entry.isFile() ? [path] : []
    })
    .sort()
}

/** One hash over the contents of `files` and their paths relative to `base`: a key part for a tree of files. */
export function hashFiles(files: readonly string[], base: string): string {
  const hash = createHash('sha256')
  for (const file of files) {
    const contents = readFileSync(file)
    // Lengths first, so no two lists of files give the same byte stream.
    hash.update(`${relative(base, file)}\0${contents.length}\0`).update(contents)
  }
  return hash.digest('hex')
}

const NO_CACHE: ContentCache = { read: () => null, write: () => {}, pathOf: () => null }

/** What the cache may hold before its oldest entries go: whole results and bundles are megabytes each. */
export const CACHE_MAX_BYTES = 256 * 1024 * 1024

/**
 * A cache in `directory`, or one that stores nothing when it is null or
 * cannot be used (a read-only or full disk, a file in the way): a cache only
 * ever saves time, so its failures never fail the command. The first write of
 * a process trims the directory to `maxBytes`, oldest entries first (an entry
 * removed is only computed again).
 */
export function createContentCache(directory: string | null, maxBytes = CACHE_MAX_BYTES): ContentCache {
  if (!directory) return NO_CACHE
  try {
    mkdirSync(directory, { recursive: true })
  } catch {
    return NO_CACHE
  }
  let trimmed = false
  return {
    read(key) {
      try {
        return readFileSync(join(directory, key), 'utf8')
      } catch {
        return null
      }
    },
    write(key, value) {
      // Staged and renamed into place, so a concurrent run never reads half an entry.
      const path = join(directory, key)
      const staged = temporaryPathOf(path)
      try {
        if (!trimmed) trimCache(directory, maxBytes)
        trimmed = true
        writeFileSync(staged, value)
        renameSync(staged, path)
      } catch {
        rmSync(staged, { force: true })
      }
    },
    pathOf(key) {
      const path = join(directory, key)
      return existsSync(path) ? path : null
    },
  }
}

/** Removes the oldest entries until what is left takes at most three quarters of `maxBytes`. */
function trimCache(directory: string, maxBytes: number): void {
  const entries = readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(directory, entry.name)
      const { size, mtimeMs } = statSync(path)
      return { path, size, mtimeMs }
    })
  let total = entries.reduce((sum, entry) => sum + entry.size, 0)
  if (total <= maxBytes) return
  for (const entry of entries.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= maxBytes * 0.75) return
    rmSync(entry.path, { force: true })
    total -= entry.size
  }
}

/** In the nearest node_modules/.cache, the usual home of tool caches; null when there is none or RESTMINT_CACHE=off. */
export function findCacheDirectory(cwd: string): string | null {
  const setting = process.env.RESTMINT_CACHE
  if (setting === 'off') return null
  if (setting !== undefined && setting !== '') return resolve(setting)
  for (let directory = resolve(cwd); ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'node_modules'))) return join(directory, 'node_modules', '.cache', 'restmint')
    if (dirname(directory) === directory) return null
  }
}
