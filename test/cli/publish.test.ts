import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

const MANIFEST = `restmint: 1
service: { title: Blog }
limits: { per_page_max: 100 }
versions:
  v1: {}
resources:
  authors:
    fields:
      name: { type: string, required: true }
  posts:
    fields:
      title: { type: string, required: true, max_length: 300 }
      body: { type: string }
      price: { type: number, minimum: 0, nullable: true }
      status: { type: string, enum: [draft, published], default: draft }
    relations:
      author: { resource: authors }
    include: [author]
    sort: [title, price]
    filter: { price: [eq, gte], status: [eq] }
`

describe('restmint publish and check against published contracts', () => {
  let project: string
  const published = () => join(project, 'published', 'v1.openapi.json')
  const generatedV1 = () => readFileSync(join(project, 'generated', 'v1', 'openapi.json'), 'utf8')
  const writeManifest = (text: string) => writeFileSync(join(project, 'resources.yaml'), text)
  /** Edits the manifest and regenerates, so only the contract can fail `check`. */
  const regenerate = async (text: string) => {
    writeManifest(text)
    expect((await runCli(project, 'generate')).exitCode).toBe(0)
  }

  beforeEach(async () => {
    project = mkdtempSync(join(tmpdir(), 'restmint-publish-'))
    await regenerate(MANIFEST)
  })
  afterEach(() => rmSync(project, { recursive: true, force: true }))

  it('records the generated document on first publish, whole, and check then passes', async () => {
    const run = await runCli(project, 'publish', 'v1')
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout).toBe('published v1: published/v1.openapi.json\n')
    expect(readFileSync(published(), 'utf8')).toBe(generatedV1())
    expect(readdirSync(join(project, 'published'))).toEqual(['v1.openapi.json'])
    const checked = await runCli(project, 'check')
    expect(checked.exitCode, checked.stdout).toBe(0)
    expect(checked.stdout).toContain('published/v1.openapi.json matches what resources.yaml generates for v1.')
  })

  it('refuses output that does not match the manifest', async () => {
    writeManifest(MANIFEST.replace('max_length: 300', 'max_length: 400'))
    const run = await runCli(project, 'publish', 'v1')
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toContain(
      'generated/ was generated from another version of resources.yaml; run restmint generate',
    )
    expect(existsSync(published())).toBe(false)
  })

  it('names the versions when asked for an unknown one (usage error)', async () => {
    const run = await runCli(project, 'publish', 'v7')
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toBe('restmint publish: unknown version "v7" in generated/; the versions are v1\n')
  })

  /** Each rule's manifest edit: the text replaced, its replacement, and the finding after the rule ID. */
  const BREAKING: readonly [string, [string, string][], string][] = [
    [
      'REQUEST_MAX_LENGTH_DECREASED',
      [['max_length: 300', 'max_length: 100']],
      'POST /v1/posts: request field title: max_length 300 → max_length 100',
    ],
    [
      'REQUEST_FIELD_REMOVED',
      [['      body: { type: string }\n', '']],
      'POST /v1/posts: request field body: body → (absent)',
    ],
    [
      'FIELD_TYPE_CHANGED',
      [['body: { type: string }', 'body: { type: integer }']],
      'POST /v1/posts: request field body: string → integer',
    ],
    [
      'REQUEST_NULLABLE_REMOVED',
      [['minimum: 0, nullable: true', 'minimum: 0']],
      'POST /v1/posts: request field price: number or null → number',
    ],
    [
      'REQUEST_MINIMUM_INCREASED',
      [['minimum: 0', 'minimum: 5']],
      'POST /v1/posts: request field price: minimum 0 → minimum 5',
    ],
    [
      'REQUEST_ENUM_VALUE_REMOVED',
      [['enum: [draft, published]', 'enum: [draft]']],
      'POST /v1/posts: request field status: "draft", "published" → "draft"',
    ],
    [
      'REQUEST_FIELD_BECAME_REQUIRED',
      [['body: { type: string }', 'body: { type: string, required: true }']],
      'POST /v1/posts: request field body: optional → required',
    ],
    ['FILTER_OPERATOR_REMOVED', [['price: [eq, gte]', 'price: [eq]']], 'GET /v1/posts: filter[price]: eq, gte → eq'],
    [
      'SORT_FIELD_REMOVED',
      [['sort: [title, price]', 'sort: [title]']],
      'GET /v1/posts: query parameter sort: sort=price → (absent)',
    ],
    [
      'INCLUDE_PATH_REMOVED',
      [['include: [author]', 'include: []']],
      'GET /v1/posts: query parameter include: include=author → (absent)',
    ],
    [
      'PER_PAGE_MAX_DECREASED',
      [['per_page_max: 100', 'per_page_max: 50']],
      'GET /v1/authors: query parameter per_page: maximum 100 → maximum 50',
    ],
    [
      'RESOURCE_RENAMED',
      [
        ['  authors:\n', '  writers:\n'],
        ['resource: authors', 'resource: writers'],
      ],
      '/v1/authors: /v1/authors → /v1/writers',
    ],
  ]
  const edit = (replacements: [string, string][]) =>
    replacements.reduce((text, [from, to]) => text.replace(from, to), MANIFEST)

  it.each(BREAKING)('check fails and publish refuses on %s', async (rule, replacements, finding) => {
    await runCli(project, 'publish', 'v1')
    const before = readFileSync(published(), 'utf8')
    await regenerate(edit(replacements))
    const checked = await runCli(project, 'check')
    expect(checked.exitCode).toBe(1)
    // Only a break some change kind declares can move to a new major; the others can only be undone.
    const kind = (
      { REQUEST_FIELD_REMOVED: 'remove_field', RESOURCE_RENAMED: 'rename_resource' } as Record<string, string>
    )[rule]
    const way = kind
      ? `this change needs a new major version: add v2 with a \`${kind}\` entry in its \`changes\`, or `
      : 'no `changes` entry of a new major version can declare it, so '
    expect(checked.stdout).toContain(`published/v1.openapi.json: ${rule}: ${finding}; ${way}`)
    const refused = await runCli(project, 'publish', 'v1')
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toContain(`published/v1.openapi.json: ${rule}: ${finding};`)
    expect(readFileSync(published(), 'utf8')).toBe(before)
  })

  const ADDITIVE: readonly [string, [string, string][], string][] = [
    [
      'REQUEST_FIELD_ADDED',
      [['      body: { type: string }\n', '      body: { type: string }\n      summary: { type: string }\n']],
      'POST /v1/posts: request field summary: (absent) → summary (string)',
    ],
    [
      'REQUEST_CONSTRAINT_RELAXED',
      [['max_length: 300', 'max_length: 500']],
      'POST /v1/posts: request field title: max_length 300 → max_length 500',
    ],
    [
      'SORT_FIELD_ADDED',
      [['sort: [title, price]', 'sort: [title, price, status]']],
      'GET /v1/posts: query parameter sort: (absent) → sort=status',
    ],
  ]

  it.each(ADDITIVE)('check passes with a note and publish records %s', async (rule, replacements, finding) => {
    await runCli(project, 'publish', 'v1')
    await regenerate(edit(replacements))
    const checked = await runCli(project, 'check')
    expect(checked.exitCode, checked.stdout).toBe(0)
    expect(checked.stdout).toMatch(
      new RegExp(`has additive changes only \\(.*\\d ${rule}\\b.*\\); run \`restmint publish v1\``),
    )
    const listed = await runCli(project, 'check', '--diff')
    expect(listed.stdout).toContain(`published/v1.openapi.json: ${rule}: ${finding}\n`)
    expect(listed.stdout).toContain('has additive changes only; run `restmint publish v1` to record it')
    const recorded = await runCli(project, 'publish', 'v1')
    expect(recorded.exitCode, recorded.stderr).toBe(0)
    expect(recorded.stdout).toContain(`published/v1.openapi.json: ${rule}: ${finding}\n`)
    expect(readFileSync(published(), 'utf8')).toBe(generatedV1())
  })

  it('fails when a published version is no longer in versions:', async () => {
    await runCli(project, 'publish', 'v1')
    await regenerate(MANIFEST.replace('  v1: {}', '  v2: {}'))
    const checked = await runCli(project, 'check')
    expect(checked.exitCode).toBe(1)
    expect(checked.stdout).toContain(
      'published/v1.openapi.json: v1 is published, but resources.yaml no longer lists it under versions:; ' +
        'a published version is served until its sunset has passed: add v1 back to versions:',
    )
  })

  it('passes a published version that is deprecated, with a note, and publish records its deprecation', async () => {
    await runCli(project, 'publish', 'v1')
    const deprecated = MANIFEST.replace(
      '  v1: {}\n',
      '  v1: { deprecated: 2027-01-15, sunset: 2027-07-15 }\n' +
        '  v2:\n    changes:\n      - rename_field: { resource: posts, from: body, to: content }\n        why: clearer\n',
    ).replace('      body: { type: string }', '      content: { type: string }')
    await regenerate(deprecated)
    const checked = await runCli(project, 'check')
    expect(checked.exitCode, checked.stdout).toBe(0)
    expect(checked.stdout).toContain(
      'published/v1.openapi.json: v1 differs only in its deprecation and descriptions; run `restmint publish v1` to record it\n',
    )
    const recorded = await runCli(project, 'publish', 'v1')
    expect(recorded.exitCode, recorded.stderr).toBe(0)
    expect(readFileSync(published(), 'utf8')).toBe(generatedV1())
    // Recorded, the deprecated document is what check compares with from then on.
    expect((await runCli(project, 'check')).exitCode).toBe(0)
  })

  it('says how to recover a published file that is not JSON', async () => {
    await runCli(project, 'publish', 'v1')
    writeFileSync(published(), '{ "openapi": ')
    for (const command of ['check', 'publish']) {
      const run = await runCli(project, command, ...(command === 'publish' ? ['v1'] : []))
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toMatch(
        /^restmint: published\/v1\.openapi\.json is not valid JSON \(.+\); restore it from version control/m,
      )
    }
  })

  it('passes consecutive versions whose breaking differences are exactly their declared changes', async () => {
    const twoVersions = join(import.meta.dirname, '..', 'cases', 'versions-changes-good', 'resources.yaml')
    await regenerate(readFileSync(twoVersions, 'utf8'))
    const checked = await runCli(project, 'check')
    expect(checked.exitCode, checked.stdout).toBe(0)
    expect(checked.stdout).toContain('v1 → v2: the breaking differences are the 6 declared in versions.v2.changes.')
  })

  it('fails on a declared change that is no breaking difference between the versions, at its entry', async () => {
    // posts.summary is optional in v2: v1's clients notice nothing, so it needs no new major.
    // Judged from the manifest, so validate reports it as check does, at the same entry (issue 18, item 3).
    writeManifest(
      MANIFEST.replace(
        '  v1: {}\n',
        '  v1: {}\n  v2:\n    changes:\n      - add_field: { resource: posts, field: summary }\n        why: teasers\n',
      ).replace('      body: { type: string }\n', '      body: { type: string }\n      summary: { type: string }\n'),
    )
    const diagnostic =
      'resources.yaml:8:9: error VERSION_CHANGE_NOT_BREAKING: add_field posts.summary is optional in v2: an addition ' +
      'no client of v1 notices, so it is not a breaking difference between v1 and v2; remove the entry, or freeze v1'
    for (const command of ['validate', 'check']) {
      const run = await runCli(project, command)
      expect(run.exitCode).toBe(1)
      expect(run.stdout + run.stderr).toContain(diagnostic)
      expect(run.stdout).not.toContain('v1 → v2')
    }
  })

  it('reports a `was` that disagrees with the published document at the `was`, quoting the document', async () => {
    await runCli(project, 'publish', 'v1')
    const removingPrice = (was: string) =>
      MANIFEST.replace(
        '  v1: {}\n',
        `  v1: {}\n  v2:\n    changes:\n      - remove_field: { resource: posts, field: price, was: ${was} }\n        why: prices moved\n`,
      )
        .replace('      price: { type: number, minimum: 0, nullable: true }\n', '')
        .replace('sort: [title, price]', 'sort: [title]')
        .replace('filter: { price: [eq, gte], status: [eq] }', 'filter: { status: [eq] }')
    await regenerate(removingPrice('{ type: integer, minimum: 0 }'))
    const wrong = await runCli(project, 'check')
    expect(wrong.exitCode).toBe(1)
    expect(wrong.stdout).toContain(
      'resources.yaml:8:56: error VERSION_WAS_PUBLISHED: remove_field posts.price: `was` disagrees with ' +
        'published/v1.openapi.json, which says price: {"type":["number","null"],"minimum":0}; ' +
        'make `was` describe v1 as published',
    )
    await regenerate(removingPrice('{ type: number, minimum: 0, nullable: true }'))
    const right = await runCli(project, 'check')
    expect(right.stdout).not.toContain('VERSION_WAS_PUBLISHED')
  })
})
