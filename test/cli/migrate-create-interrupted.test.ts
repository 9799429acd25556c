/**
 * `restmint migrate create` killed with SIGKILL (issue 8): at every step of
 * its write path (lock taken, staging directory made, each file staged, the
 * migration renamed into place, lock released) the migrations directory holds
 * either no new migration or the whole one, and the next run finishes the job
 * and removes what the killed one left.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listMigrations } from '../../runtime/migrations/list-migrations.js'
import { readTree } from '../support/read-tree.js'
import { runCli } from '../support/run-cli.js'
import { runCliProcess } from '../support/spawn-cli.js'

const MANIFEST = `restmint: 1
service: { title: Case }
versions: { v1: {} }
resources:
  posts: { fields: { title: { type: string, required: true } } }
`
const EDITED = MANIFEST.replace('} } }', '}, summary: { type: string } } }')

const root = mkdtempSync(join(tmpdir(), 'restmint-create-interrupted-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

let projects = 0
/** A project whose migrations reach MANIFEST, with EDITED as its manifest. */
function newProject(template: string): string {
  const project = join(root, `project-${++projects}`)
  cpSync(template, project, { recursive: true })
  return project
}

describe('restmint migrate create killed with SIGKILL', () => {
  let template: string
  /** The migrations directory before the run. */
  let old: Map<string, string>
  /** The migrations directory after a run that is not killed. */
  let fresh: Map<string, string>

  beforeAll(async () => {
    template = join(root, 'template')
    mkdirSync(template)
    writeFileSync(join(template, 'resources.yaml'), MANIFEST)
    expect((await runCli(template, 'migrate', 'create')).exitCode).toBe(0)
    writeFileSync(join(template, 'resources.yaml'), EDITED)
    old = readTree(join(template, 'migrations'))
    const reference = newProject(template)
    expect((await runCli(reference, 'migrate', 'create')).exitCode).toBe(0)
    fresh = readTree(join(reference, 'migrations'))
    expect([...fresh.keys()].filter((path) => !old.has(path)).sort()).toEqual([
      '0002_add_posts_summary/postgres.sql',
      '0002_add_posts_summary/snapshot.json',
      '0002_add_posts_summary/sqlite.sql',
    ])
  })

  it('leaves no new migration or the whole one, and the next run finishes and cleans up', async () => {
    const killedAt: number[] = []
    let finished = false
    // Kill after step 1, 2, … until a run gets through every step. Two runs at a time.
    for (let step = 1; !finished; step += 2) {
      const runs = [step, step + 1].map(async (killAfter) => {
        const project = newProject(template)
        const migrations = join(project, 'migrations')
        const run = await runCliProcess(project, ['migrate', 'create'], { RESTMINT_KILL_AFTER_STEP: String(killAfter) })
        if (run.signal !== 'SIGKILL') {
          expect(run, 'a run that is not killed succeeds').toMatchObject({ exitCode: 0, stderr: '' })
          finished = true
        } else {
          killedAt.push(killAfter)
        }
        const names = listMigrations(migrations)!.map((migration) => migration.name)
        const visible = new Map([...readTree(migrations)].filter(([path]) => !path.startsWith('.')))
        expect(visible, `killed after step ${killAfter}`).toEqual(names.length === 1 ? old : fresh)

        const next = await runCli(project, 'migrate', 'create')
        expect(next.stderr, `migrate create after a kill at step ${killAfter}`).toBe('')
        expect(next.exitCode).toBe(0)
        expect(readTree(migrations), `after a kill at step ${killAfter}`).toEqual(fresh)
        expect(readdirSync(migrations).sort(), `leftovers after a kill at step ${killAfter}`).toEqual([
          '0001_init',
          '0002_add_posts_summary',
        ])
      })
      await Promise.all(runs)
    }
    // Lock, staging directory, 3 staged files, rename, lock removed: 7 steps.
    expect(killedAt.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7])
  }, 120_000)
})
