import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeOutput } from '../../generator/emit/write-output.js'
import { readTree } from '../support/read-tree.js'

const scratch = mkdtempSync(join(tmpdir(), 'restmint-write-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A file name no file system takes (over 255 bytes): writing it fails with ENAMETOOLONG. */
const unwritable = `v1/types/${'a'.repeat(300)}.ts`

describe('writeOutput', () => {
  it('leaves no directory behind when a write fails in a new output directory', () => {
    const out = join(scratch, 'fresh')
    expect(() =>
      writeOutput(
        out,
        new Map([
          ['schema.ts', 'x'],
          [unwritable, 'y'],
        ]),
        new Set(),
      ),
    ).toThrow()
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(scratch)).toEqual([])
  })

  it('keeps the previous output whole when a write fails', () => {
    const out = join(scratch, 'existing')
    mkdirSync(join(out, 'v1'), { recursive: true })
    writeFileSync(join(out, 'v1', 'index.ts'), 'previous')
    expect(() =>
      writeOutput(
        out,
        new Map([
          ['v1/routes/a.ts', 'x'],
          [unwritable, 'y'],
        ]),
        new Set(),
      ),
    ).toThrow()
    expect(readTree(out)).toEqual(new Map([['v1/index.ts', 'previous']]))
    expect(readdirSync(scratch)).toEqual(['existing'])
  })

  it('replaces the files restmint wrote, drops those it no longer writes, and carries the others over', () => {
    const out = join(scratch, 'replaced')
    mkdirSync(join(out, 'v1', 'old'), { recursive: true })
    writeFileSync(join(out, 'v1', 'index.ts'), 'previous')
    writeFileSync(join(out, 'v1', 'old', 'gone.ts'), 'stale')
    writeFileSync(join(out, 'NOTES.md'), 'mine')
    writeOutput(out, new Map([['v1/index.ts', 'next']]), new Set(['v1/index.ts', 'v1/old/gone.ts']))
    expect(readTree(out)).toEqual(
      new Map([
        ['NOTES.md', 'mine'],
        ['v1/index.ts', 'next'],
      ]),
    )
    expect(existsSync(join(out, 'v1', 'old'))).toBe(false)
    expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toBe('mine')
    rmSync(out, { recursive: true })
  })
})
