import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'

/** How long a burst of file events (an editor's write, rename and chmod) is let settle before one change is reported. */
const SETTLE_MS = 30

export interface FileWatch {
  /** Watches exactly these files from now on (absolute paths). */
  watchFiles(files: Iterable<string>): void
  close(): void
}

/**
 * Calls `changed` once per burst of changes to any of the files. Each file is
 * watched through its directory, not its inode: editors that save by writing
 * a new file and renaming it over the old one would otherwise end the watch
 * at the first save.
 */
export function watchFiles(changed: () => void): FileWatch {
  const watchers = new Map<string, { watcher: FSWatcher; names: Set<string> }>()
  let timer: NodeJS.Timeout | undefined
  const settle = (): void => {
    clearTimeout(timer)
    timer = setTimeout(changed, SETTLE_MS)
  }
  return {
    watchFiles(files) {
      const wanted = new Map<string, Set<string>>()
      for (const file of files) {
        const names = wanted.get(dirname(file)) ?? new Set<string>()
        names.add(basename(file))
        wanted.set(dirname(file), names)
      }
      for (const [directory, entry] of watchers) {
        if (!wanted.has(directory)) {
          entry.watcher.close()
          watchers.delete(directory)
        }
      }
      for (const [directory, names] of wanted) {
        const entry = watchers.get(directory)
        if (entry !== undefined) {
          entry.names = names
          continue
        }
        const watched = {
          names,
          watcher: watch(directory, (_event, name) => {
            if (name === null || watched.names.has(name)) settle()
          }),
        }
        watchers.set(directory, watched)
      }
    },
    close() {
      clearTimeout(timer)
      for (const { watcher } of watchers.values()) watcher.close()
      watchers.clear()
    },
  }
}
