import { beforeAll, describe, expect, it } from 'vitest'
import { versionDocumentPath } from '../../generator/contract/version-documents.js'
import { checkContracts, projectWith, renderContracts } from './check-contracts.js'

/**
 * Which changes of decimal and json fields break a published v1 (issue 17,
 * "Types"): fewer digits in a decimal and a narrower json schema are
 * breaking (REQUEST_PATTERN_CHANGED, and the rules of the schema keywords
 * that narrowed: REQUEST_FIELD_BECAME_REQUIRED, REQUEST_MAX_LENGTH_DECREASED,
 * REQUEST_ENUM_VALUE_REMOVED…); more digits and a wider schema are not.
 */
const PUBLISHED_STATE = `restmint: 1
service: { title: Shop }
versions:
  v1: {}
resources:
  products:
    fields:
      price: { type: decimal, precision: 10, scale: 2 }
      settings:
        type: json
        schema:
          type: object
          properties:
            note: { type: string, maxLength: 20 }
            colour: { enum: [red, green] }
          additionalProperties: false
`

let published: string
beforeAll(async () => {
  published = (await renderContracts(projectWith(PUBLISHED_STATE))).files.get(versionDocumentPath('v1'))!
})

const edited = (from: string, to: string) => {
  if (!PUBLISHED_STATE.includes(from)) throw new Error(`${from} is not in the manifest`)
  return PUBLISHED_STATE.replace(from, to)
}

describe('contract rules of decimal and json fields', () => {
  it('finds fewer decimal digits breaking, naming the digits', async () => {
    const { exitCode, report } = await checkContracts(
      edited('precision: 10, scale: 2', 'precision: 10, scale: 1'),
      published,
    )
    expect(exitCode).toBe(1)
    expect(report).toContain('REQUEST_PATTERN_CHANGED')
    expect(report).toContain('decimal of 8 integer and 2 fraction digits')
    expect(report).toContain('decimal of 9 integer and 1 fraction digits')
  })

  it('finds more decimal digits additive', async () => {
    const { exitCode, report } = await checkContracts(
      edited('precision: 10, scale: 2', 'precision: 12, scale: 3'),
      published,
    )
    expect(report).not.toContain('REQUEST_PATTERN_CHANGED')
    expect(report).toContain('REQUEST_CONSTRAINT_RELAXED')
    expect(exitCode).toBe(0)
  })

  it('finds a narrowed json schema breaking, by the keyword that narrowed', async () => {
    const shorter = await checkContracts(edited('maxLength: 20', 'maxLength: 10'), published)
    expect(shorter.exitCode).toBe(1)
    expect(shorter.report).toContain('REQUEST_MAX_LENGTH_DECREASED')
    expect(shorter.report).toContain('settings.note')
    const fewer = await checkContracts(edited('enum: [red, green]', 'enum: [red]'), published)
    expect(fewer.report).toContain('REQUEST_ENUM_VALUE_REMOVED')
    const required = await checkContracts(
      edited(
        '          additionalProperties: false',
        '          required: [note]\n          additionalProperties: false',
      ),
      published,
    )
    expect(required.report).toContain('REQUEST_FIELD_BECAME_REQUIRED')
  })

  it('finds a widened json schema additive', async () => {
    const { exitCode, report } = await checkContracts(edited('maxLength: 20', 'maxLength: 30'), published)
    expect(report).toContain('REQUEST_CONSTRAINT_RELAXED')
    expect(exitCode).toBe(0)
  })
})
