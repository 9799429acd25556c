import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createContentCache } from '../../generator/emit/content-cache.js'

describe('the content cache', () => {
  let directory: string
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'restmint-cache-'))
  })
  afterEach(() => rmSync(directory, { recursive: true, force: true }))

  it('trims itself to its budget on the first write of a process, oldest entries first', () => {
    // Ten entries of 100 bytes, written one second apart: entry-0 is the oldest.
    for (let index = 0; index < 10; index++) {
      const path = join(directory, `entry-${index}`)
      writeFileSync(path, 'x'.repeat(100))
      utimesSync(path, 1_000_000 + index, 1_000_000 + index)
    }
    const cache = createContentCache(directory, 800)
    cache.write('new', 'y'.repeat(100))
    // 1,000 bytes over a budget of 800: the oldest go until 600 are left, then the new entry is written.
    expect(readdirSync(directory).sort()).toEqual([
      'entry-4',
      'entry-5',
      'entry-6',
      'entry-7',
      'entry-8',
      'entry-9',
      'new',
    ])
    expect(cache.read('new')).toBe('y'.repeat(100))
  })

  it('leaves a cache within its budget alone', () => {
    writeFileSync(join(directory, 'old'), 'x'.repeat(100))
    createContentCache(directory, 1_000).write('new', 'y')
    expect(readdirSync(directory).sort()).toEqual(['new', 'old'])
  })
})
