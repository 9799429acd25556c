import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { describeEscapes, findEscapingSymlinks } from './find-escaping-symlinks.js'
import { killPoint } from './kill-point.js'
import { OUTPUT_INDEX } from './output-index.js'
import { stagingPaths } from './output-staging.js'
import { writeNewFile } from './write-new-file.js'

/**
 * Replaces the output directory with `files` as a whole, the way migrations
 * are written: the new output is built in a directory beside it (every
 * generated file, plus every file of the user's that the old output holds),
 * then the old directory is renamed aside, the new one renamed into place and
 * the old one removed. Killed before the first rename, the old output stands;
 * after the second, the new one. Killed between the two, the output directory
 * is absent and the old output whole beside it: the next `generate` puts it
 * back before it starts, and `check` says so.
 *
 * Call it holding the lock of stagingPaths. `owned` lists the files the old
 * output's index says restmint wrote: those are not copied, as `files`
 * replaces them. Each step ends at a killPoint, where tests kill it.
 */
export function writeOutput(outDir: string, files: ReadonlyMap<string, string>, owned: ReadonlySet<string>): void {
  const { staged, movedAside } = stagingPaths(outDir)
  rmSync(staged, { recursive: true, force: true })
  try {
    mkdirSync(staged, { recursive: true })
    if (existsSync(outDir)) copyUserFiles(outDir, staged, (path) => files.has(path) || owned.has(path))
    // A link the user's files brought along that leads out of the new output, or back into the old one.
    const escapes = findEscapingSymlinks(staged, files.keys())
    if (escapes.length > 0) throw new UserError(`${describeEscapes(escapes, outDir)} Nothing was written.`)
    for (const [path, contents] of files) {
      mkdirSync(dirname(join(staged, path)), { recursive: true })
      writeNewFile(join(staged, path), contents)
    }
  } catch (error) {
    rmSync(staged, { recursive: true, force: true })
    throw error
  }
  killPoint()
  const replacing = existsSync(outDir)
  try {
    if (replacing) renameSync(outDir, movedAside)
    killPoint()
    renameSync(staged, outDir)
  } catch (error) {
    if (replacing && !existsSync(outDir)) renameSync(movedAside, outDir)
    rmSync(staged, { recursive: true, force: true })
    throw error
  }
  killPoint()
  rmSync(movedAside, { recursive: true, force: true })
  killPoint()
}

/**
 * Copies every file and link under `from` that `isGenerated` does not claim
 * to the same place under `to`, links as links. Directories are made for what
 * goes in them, so one that held only generated files is not carried over.
 */
function copyUserFiles(from: string, to: string, isGenerated: (path: string) => boolean, directory = ''): void {
  for (const entry of readdirSync(join(from, directory), { withFileTypes: true })) {
    const path = directory === '' ? entry.name : `${directory}/${entry.name}`
    if (path === OUTPUT_INDEX || isGenerated(path)) continue
    if (entry.isDirectory()) {
      copyUserFiles(from, to, isGenerated, path)
      continue
    }
    mkdirSync(dirname(join(to, path)), { recursive: true })
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(join(from, path)), join(to, path))
    else copyFileSync(join(from, path), join(to, path))
  }
}
