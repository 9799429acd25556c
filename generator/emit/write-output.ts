import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { killPoint } from './kill-point.js'
import { commitJournal, rollBackJournal, startJournal, writeJournal } from './output-journal.js'
import type { OutputPlan } from './plan-output.js'
import { writeNewFile } from './write-new-file.js'

/**
 * Applies a plan, all or nothing, even if the process is killed midway. The
 * journal (`.restmint-journal`) is written first; every new file is then
 * staged next to its target under a temporary name. A failure or a kill up to
 * here leaves the previous output in place: a failure is undone at once, a
 * kill by the next `generate`. Then the journal is marked committing, the
 * files are renamed into place and stale files removed; the next `generate`
 * finishes this part if it is interrupted. Leftovers of older runs go last.
 *
 * Call it while holding the output lock, on a directory whose interrupted
 * journal (if any) has been recovered, with a plan that has no conflicts and
 * no escaping symlinks.
 */
export function writeOutput(outDir: string, plan: OutputPlan): void {
  if (plan.changed.size > 0 || plan.stale.length > 0) {
    const journal = startJournal(outDir, plan.changed.keys(), plan.stale)
    writeJournal(outDir, journal)
    try {
      for (const [temporary, target] of journal.renames) {
        const absolute = join(outDir, temporary)
        mkdirSync(dirname(absolute), { recursive: true })
        writeNewFile(absolute, plan.changed.get(target)!)
        killPoint()
      }
    } catch (error) {
      rollBackJournal(outDir, journal)
      throw error
    }
    const committing = { ...journal, phase: 'committing' } as const
    writeJournal(outDir, committing)
    commitJournal(outDir, committing)
  }
  for (const path of plan.leftovers) {
    rmSync(join(outDir, path), { force: true })
    killPoint()
  }
}
