import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'

/** A symlink inside the output directory that leads out of it. */
export interface SymlinkEscape {
  /** The link, relative to the output directory. */
  readonly path: string
  /** Where it points, as written in the link. */
  readonly target: string
}

/**
 * The symlinks that writing, renaming or removing `paths` (relative to
 * `outDir`) would go through and that lead out of `outDir`: any directory on
 * the way, or the file itself. Links that stay inside are fine, and so is
 * `outDir` itself being a link. Each link is reported once.
 */
export function findEscapingSymlinks(outDir: string, paths: Iterable<string>): SymlinkEscape[] {
  let root: string
  try {
    root = realpathSync(outDir)
  } catch {
    return [] // No output directory yet: nothing in it can be a link.
  }
  const checked = new Map<string, Entry>()
  const escapes = new Set<SymlinkEscape>()
  for (const path of paths) {
    const parts = path.split('/')
    for (let depth = 1; depth <= parts.length; depth++) {
      const prefix = parts.slice(0, depth).join('/')
      let entry = checked.get(prefix)
      if (entry === undefined) {
        entry = inspect(outDir, root, prefix)
        checked.set(prefix, entry)
      }
      if (entry === 'missing') break // Nothing deeper exists either.
      if (entry !== 'safe') escapes.add(entry)
    }
  }
  return [...escapes]
}

type Entry = SymlinkEscape | 'safe' | 'missing'

function inspect(outDir: string, root: string, path: string): Entry {
  const absolute = join(outDir, path)
  let isLink: boolean
  try {
    isLink = lstatSync(absolute).isSymbolicLink()
  } catch {
    return 'missing'
  }
  if (!isLink) return 'safe'
  const target = readlinkSync(absolute)
  let resolved: string
  try {
    resolved = realpathSync(absolute)
  } catch {
    // A dangling link: where it would lead once its target exists.
    resolved = resolve(dirname(absolute), target)
  }
  const fromRoot = relative(root, resolved)
  const outside = fromRoot === '..' || fromRoot.startsWith('../') || isAbsolute(fromRoot)
  return outside ? { path, target } : 'safe'
}

/** Where, what and how to fix, for `generate` and `check` alike. */
export function describeEscapes(escapes: readonly SymlinkEscape[], outDir: string): string {
  const links = escapes.map(({ path, target }) => `${join(outDir, path)} -> ${target}`).join(', ')
  return (
    `refusing to write through symlinks that lead out of ${outDir}/: ${links}. ` +
    `restmint writes only inside its output directory; replace each link with a real directory (or remove it), ` +
    `or choose another --out directory.`
  )
}
