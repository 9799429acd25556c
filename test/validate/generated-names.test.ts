import { describe, expect, it } from 'vitest'
import { RESERVED_WORDS } from '../../generator/names/identifiers.js'
import { checkIdentifier } from '../../generator/render/template-helpers.js'
import { explainUnsafeName } from '../../generator/validate/explain-unsafe-name.js'
import { codesAt, diagnose, expectOnlyDiagnostic, withResources } from './diagnose.js'

/** Resources `names`, each `{}`, one per line from line 7. */
function resources(...names: string[]): string {
  return withResources(names.map((name) => `  ${name}: {}\n`).join(''))
}

describe('one reserved-word list for validation and rendering', () => {
  it.each([...RESERVED_WORDS])('%s is rejected as a field name and by the ident helper', (word) => {
    expect(explainUnsafeName(word, 'field')).toContain('reserved word')
    expect(explainUnsafeName(word, 'relation')).toContain('reserved word')
    expect(() => checkIdentifier(word)).toThrow(/not a safe identifier/)
  })

  it('covers the restricted bindings and undefined', () => {
    for (const word of ['arguments', 'eval', 'undefined', 'await', 'yield', 'let', 'static']) {
      expect(RESERVED_WORDS.has(word), word).toBe(true)
    }
  })
})

describe('identifiers derived from resource names (UNSAFE_NAME)', () => {
  it('rejects a resource whose camelCase identifier is reserved, at its key', () => {
    expectOnlyDiagnostic(
      resources('arguments'),
      'UNSAFE_NAME 7:3',
      'resource "arguments" becomes the identifier "arguments" in generated code, which is a reserved word in JavaScript modules; rename the resource',
    )
  })

  it('judges the identifier even when a singular is declared', () => {
    expectOnlyDiagnostic(
      withResources('  eval:\n    singular: evaluation\n'),
      'UNSAFE_NAME 7:3',
      'becomes the identifier "eval"',
    )
  })

  it('accepts multi-word names whose words are reserved: the identifier is camelCase', () => {
    expect(codesAt(resources('argument-lists', 'class-records', 'default-values'))).toEqual([])
  })

  it('leaves names that break a naming rule to that rule', () => {
    expect(codesAt(resources('Arguments'))).toEqual(['NAMING_LOWERCASE 7:3'])
  })
})

describe('name lengths (UNSAFE_NAME)', () => {
  const long = (length: number, suffix = '') => 'a'.repeat(length - suffix.length) + suffix

  it('caps resource names at 63 characters', () => {
    // -children → -child: the key `<singular>_id` has 63 characters too.
    expect(codesAt(resources(long(63, '-children')))).toEqual([])
    expectOnlyDiagnostic(
      resources(long(280, '-bs')),
      'UNSAFE_NAME 7:3',
      'is 280 characters long; it names a SQL table, and PostgreSQL cuts names longer than 63 characters',
    )
  })

  it('shortens the quoted name in the message', () => {
    const [found] = diagnose(resources(long(280, '-bs')))
    expect(found?.message.length).toBeLessThan(300)
  })

  it('caps field names at 63 characters', () => {
    const text = (name: string) => withResources(`  orders:\n    fields:\n      ${name}: { type: string }\n`)
    expect(codesAt(text('f'.repeat(63)))).toEqual([])
    expectOnlyDiagnostic(text('f'.repeat(64)), 'UNSAFE_NAME 9:7', 'is 64 characters long; it names a SQL column')
  })

  it('caps a belongs-to name so its key column fits, and a has-many name at 63', () => {
    const text = (relation: string, many: boolean) =>
      withResources(
        `  orders:\n    relations:\n      ${relation}: { resource: orders${many ? ', many: true, via: parent' : ''} }\n` +
          '      parent: { resource: orders }\n',
      )
    expect(codesAt(text('r'.repeat(60), false))).toEqual([])
    expectOnlyDiagnostic(
      text('r'.repeat(61), false),
      'UNSAFE_NAME 9:7',
      `adds the foreign key column "${'r'.repeat(61)}_id", which is 64 characters long; PostgreSQL cuts names longer than 63 characters (so two could become one); shorten the relation name to at most 60 characters`,
    )
    expect(codesAt(text('m'.repeat(63), true))).toEqual([])
    expect(codesAt(text('m'.repeat(64), true))).toEqual(['UNSAFE_NAME 9:7'])
  })

  it("caps a resource's key <singular>_id, at the resource", () => {
    expect(codesAt(resources(long(61, '-items')))).toEqual([])
    expectOnlyDiagnostic(
      resources(long(62, '-items')),
      'UNSAFE_NAME 7:3',
      'is 64 characters long; PostgreSQL cuts names longer than 63 characters (so two could become one); shorten the name by 1 character or more, or declare a shorter singular:',
    )
    expectOnlyDiagnostic(
      withResources(`  things:\n    singular: ${'s'.repeat(61)}\n`),
      'UNSAFE_NAME 7:3',
      'shorten its singular: by 1 character or more',
    )
  })
})

describe('NAME_COLLISION', () => {
  it.each([
    ['problems', 'the OpenAPI schema "Problem" (its record type), which is restmint\'s schema of the problem details'],
    ['page-metas', 'the OpenAPI schema "PageMeta" (its record type)'],
    ['page-links', null],
  ])("%s against restmint's own schemas", (name, message) => {
    if (message === null) expect(codesAt(resources(name))).toEqual([])
    else expectOnlyDiagnostic(resources(name), 'NAME_COLLISION 7:3', message)
  })

  it('reports a declared singular that spells a built-in schema', () => {
    expectOnlyDiagnostic(
      withResources('  page-link-lists:\n    singular: page-links\n'),
      'NAME_COLLISION 7:3',
      'the OpenAPI schema "PageLinks" (its record type), which is restmint\'s schema of the page links of every collection; declare a singular: that gives it another type name, or rename the resource',
    )
  })

  it.each([
    ['book-pages', 'BookPage', 'page envelope'],
    ['book-creates', 'BookCreate', 'create body'],
    ['book-replaces', 'BookReplace', 'replace body'],
    ['book-updates', 'BookUpdate', 'update body'],
  ])('books + %s: reported at the later resource', (other, schema, ownerRole) => {
    expectOnlyDiagnostic(
      resources('books', other),
      'NAME_COLLISION 8:3',
      `resource "${other}" would generate the OpenAPI schema "${schema}" (its record type), which is already the ${ownerRole} of resource "books"; declare a different singular: for one of them (it names their types), or rename one`,
    )
    const reversed = diagnose(resources(other, 'books'))
    expect(reversed.map(({ code, line }) => `${code} ${line}`)).toEqual(['NAME_COLLISION 8'])
    expect(reversed[0]?.message).toContain(
      `resource "books" would generate the OpenAPI schema "${schema}" (its ${ownerRole})`,
    )
  })

  it('counts nested bodies only for resources with a parent', () => {
    expect(codesAt(resources('chapters', 'chapter-nested-creates'))).toEqual([])
    expect(
      codesAt(withResources('  books: {}\n  chapters:\n    parent: books\n  chapter-nested-creates: {}\n')),
    ).toEqual(['NAME_COLLISION 10:3'])
  })

  it('catches resources whose camelCase identifiers coincide, asking for a rename', () => {
    expectOnlyDiagnostic(
      resources('room-1s', 'room1s'),
      'NAME_COLLISION 8:3',
      'resource "room1s" would generate the schema.ts export "room1sTable" (its table definition), which is already the table definition of resource "room-1s"; rename one of them',
    )
  })

  it('leaves two resources with one singular to SINGULAR_COLLISION', () => {
    expect(codesAt(resources('people', 'persons'))).toEqual(['SINGULAR_COLLISION 8:3'])
  })

  it('accepts names that spell generated helpers or global TypeScript types', () => {
    const names = ['all-tables', 'v1s', 'partials', 'omits', 'records', 'readonlies', 'promises', 'validators']
    expect(codesAt(resources(...names, 'table-definitions', 'route-factories', 'fastify-instances'))).toEqual([])
  })
})
