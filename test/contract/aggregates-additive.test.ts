import { describe, expect, it } from 'vitest'
import { versionDocumentPath } from '../../generator/contract/version-documents.js'
import { checkContracts, projectWith, renderContracts } from './check-contracts.js'

/**
 * Issue 17: `aggregate:` adds a path (`/v1/posts/aggregates`) and nothing
 * else, so a published version gains it without a new major: `check`
 * classifies it as additive and passes.
 */
const BEFORE = `restmint: 1
service: { title: Shop }
versions:
  v1: {}
resources:
  posts:
    fields:
      status: { type: string, required: true }
      views: { type: integer }
`
const AFTER = `${BEFORE}    aggregate:
      group_by: [status]
      functions: { views: [sum, max] }
`

describe('aggregates in the contract', () => {
  it('are an additive change of a published version', async () => {
    const published = (await renderContracts(projectWith(BEFORE))).files.get(versionDocumentPath('v1'))!
    const { exitCode, report } = await checkContracts(AFTER, published)
    expect(exitCode, report).toBe(0)
    expect(report).toContain('PATH_ADDED: /v1/posts/aggregates')
    expect(report).not.toMatch(/error|breaking/i)
  })
})
