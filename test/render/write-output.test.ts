import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { OutputPlan } from '../../generator/emit/plan-output.js'
import { withOutputLock } from '../../generator/emit/output-lock.js'
import { writeOutput } from '../../generator/emit/write-output.js'

const scratch = mkdtempSync(join(tmpdir(), 'restmint-write-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function planOf(files: Record<string, string>): OutputPlan {
  return {
    changed: new Map(Object.entries(files)),
    missing: Object.keys(files),
    unchanged: [],
    stale: [],
    conflicts: [],
    previous: new Map(),
    interrupted: null,
    leftovers: [],
    escapes: [],
  }
}

/** A file name no file system takes (over 255 bytes): writing it fails with ENAMETOOLONG. */
const unwritable = `v1/types/${'a'.repeat(300)}.ts`

describe('writeOutput', () => {
  it('leaves no directory behind when a write fails in a new output directory', () => {
    const out = join(scratch, 'fresh')
    expect(() => withOutputLock(out, () => writeOutput(out, planOf({ 'schema.ts': 'x', [unwritable]: 'y' })))).toThrow()
    expect(existsSync(out)).toBe(false)
  })

  it('removes only the directories it created, and keeps what was there', () => {
    const out = join(scratch, 'existing')
    mkdirSync(join(out, 'v1'), { recursive: true })
    writeFileSync(join(out, 'v1', 'index.ts'), 'previous')
    expect(() =>
      withOutputLock(out, () => writeOutput(out, planOf({ 'v1/routes/a.ts': 'x', [unwritable]: 'y' }))),
    ).toThrow()
    expect(readdirSync(out)).toEqual(['v1'])
    expect(readdirSync(join(out, 'v1'))).toEqual(['index.ts'])
  })
})
