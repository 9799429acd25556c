import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findTemplatesDirectory } from '../../generator/render/find-templates-directory.js'
import { checkIdentifier, templateHelpers } from '../../generator/render/template-helpers.js'

/**
 * Templates render with HTML escaping off, so values must reach generated code
 * only through the helpers (string literals, JSON, checked identifiers).
 */
describe('templates', () => {
  const directory = findTemplatesDirectory()
  const files = [
    ...readdirSync(directory).filter((file) => file.endsWith('.hbs')),
    ...readdirSync(join(directory, 'partials')).map((file) => `partials/${file}`),
  ]
  const helpers = Object.keys(templateHelpers)

  it.each(files)('%s interpolates values only through helpers', (file) => {
    const source = readFileSync(join(directory, file), 'utf8')
    for (const [mustache, inner] of source.matchAll(/\{\{~?([^}]*?)~?\}\}/g)) {
      const first = inner!.trim().split(/\s+/)[0]!
      const structural = /^[#/>!^]/.test(first) || first === 'else'
      expect(structural || helpers.includes(first), `${file}: ${mustache}`).toBe(true)
    }
  })

  it('rejects identifiers that would break or escape generated code', () => {
    for (const bad of ['__proto__x-', 'a-b', '1abc', 'delete', 'class', 'x;y', '']) {
      expect(() => checkIdentifier(bad), bad).toThrow(/not a safe identifier/)
    }
    expect(checkIdentifier('orderItems')).toBe('orderItems')
  })

  it('escapes values into string literals and comments', () => {
    expect(templateHelpers.str(`a'b"c\n`)).toBe('"a\'b\\"c\\n"')
    expect(templateHelpers.comment('x */ y\nz')).toBe('x * / y z')
  })
})
