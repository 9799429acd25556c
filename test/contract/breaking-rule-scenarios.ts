/**
 * Issue 18, item 1: one way to break BASE's published v1 per breaking rule ID
 * (docs/contract-rules.md), with the `changes` entry that declares it when a
 * change kind can. breaking-rules-way-forward.test.ts checks what `check`
 * says of each, breaking-rules-served.test.ts serves the declared ones.
 */
import type { ContractRuleId } from '../../generator/contract/contract-rules.js'

export const BASE = `restmint: 1
service: { title: Rules }
limits: { per_page_max: 100, include_max: 3 }
versions:
  v1: {}
auth:
  schemes:
    user: { type: jwt, secret_env: RULES_JWT_SECRET, issuer: https://auth.example.test/, audience: rules, algorithms: [HS256] }
resources:
  authors:
    fields:
      name: { type: string, required: true }
    relations:
      books: { resource: books, many: true }
    include: [books]
  books:
    fields:
      title: { type: string, required: true, min_length: 1, max_length: 300 }
      status: { type: string, enum: [draft, published], default: draft }
      pages: { type: integer, minimum: 1, maximum: 1000 }
      price: { type: number, nullable: true }
    relations:
      author: { resource: authors, required: true }
    owner: { field: owner_sub, claim: sub }
    access:
      update: authenticated
      delete: { scopes: [books:admin] }
    include: [author]
    sort: [title]
    filter: { title: [eq, contains], pages: [gte, lte] }
  comments:
    parent: books
    on_delete: cascade
    fields:
      text: { type: string, required: true }
`

/** A published OpenAPI document, as JSON. */
export type Document = Record<string, any>

export interface Scenario {
  readonly rule: ContractRuleId
  /** BASE's resources broken this way (a manifest edit). */
  readonly edit?: (manifest: string) => string
  /**
   * And/or the published document edited: differences no manifest edit makes
   * (media types, envelopes), which a hand edit or another restmint release gives.
   */
  readonly editPublished?: (document: Document) => void
  /** The `changes` entry of v2 that declares the break; absent when no change kind can. */
  readonly change?: string
}

/** `text` with `from` replaced by `to`; fails when `from` is not in it, so a scenario never silently does nothing. */
const replace = (from: string, to: string) => (text: string) => {
  if (!text.includes(from)) throw new Error(`scenario edit: ${JSON.stringify(from)} is not in the manifest`)
  return text.replace(from, to)
}
const field = (line: string, to: string) => replace(`      ${line}\n`, to === '' ? '' : `      ${to}\n`)

const REMOVED_PAGES = `remove_field: { resource: books, field: pages, was: { type: integer, minimum: 1, maximum: 1000 }, filter: [gte, lte] }`
const RENAMED_TITLE = `rename_field: { resource: books, from: title, to: heading }`
const TITLE = 'title: { type: string, required: true, min_length: 1, max_length: 300 }'
const PAGES = 'pages: { type: integer, minimum: 1, maximum: 1000 }'
const PRICE = 'price: { type: number, nullable: true }'
const REQUIRE_IF_MATCH = replace(
  '    include: [author]\n',
  '    include: [author]\n    concurrency: { require_if_match: true }\n',
)
const STATUS = 'status: { type: string, enum: [draft, published], default: draft }'

/** `pages` gone from the fields and the filters that name it. */
const removePages = (text: string) => replace(', pages: [gte, lte]', '')(field(PAGES, '')(text))
/** `title` is `heading`, in the fields, sort and filters. */
const renameTitle = (text: string) =>
  replace(
    'sort: [title]',
    'sort: [heading]',
  )(replace('filter: { title:', 'filter: { heading:')(field(TITLE, TITLE.replace('title', 'heading'))(text)))

export const SCENARIOS: readonly Scenario[] = [
  {
    rule: 'PATH_REMOVED',
    edit: replace(
      '  comments:\n    parent: books\n    on_delete: cascade\n    fields:\n      text: { type: string, required: true }\n',
      '',
    ),
    change: `remove_resource: { resource: comments, was: { parent: books, on_delete: cascade, fields: { text: { type: string, required: true } } } }`,
  },
  {
    rule: 'OPERATION_REMOVED',
    editPublished: (document) => {
      document.paths['/v1/authors'].put = structuredClone(document.paths['/v1/authors/{id}'].put)
    },
  },
  {
    rule: 'RESOURCE_RENAMED',
    edit: (text) =>
      replace(
        '  authors:\n',
        '  writers:\n',
      )(text)
        .replace('author: { resource: authors, required: true }', 'writer: { resource: writers, required: true }')
        .replace('include: [author]', 'include: [writer]'),
    change: 'rename_resource: { from: authors, to: writers }',
  },
  {
    rule: 'RESOURCE_REROOTED',
    edit: replace(
      '    parent: books\n    on_delete: cascade\n',
      '    relations:\n      book: { resource: books, required: true, on_delete: cascade }\n',
    ),
    change: 'reroot_resource: { resource: comments, from_parent: books }',
  },
  {
    rule: 'SUCCESS_STATUS_REMOVED',
    editPublished: (document) => {
      const responses = document.paths['/v1/authors'].post.responses
      responses['200'] = structuredClone(responses['201'])
    },
  },
  {
    rule: 'RESPONSE_MEDIA_TYPE_CHANGED',
    editPublished: (document) => {
      const content = document.paths['/v1/authors/{id}'].get.responses['200'].content
      content['application/vnd.api+json'] = content['application/json']
      delete content['application/json']
    },
  },
  {
    rule: 'REQUEST_MEDIA_TYPE_REMOVED',
    editPublished: (document) => {
      // Create bodies are components.requestBodies, referenced from the operation.
      const reference: string = document.paths['/v1/authors'].post.requestBody.$ref
      const content = document.components.requestBodies[reference.split('/').at(-1)!].content
      content['application/vnd.api+json'] = structuredClone(content['application/json'])
    },
  },
  {
    rule: 'RESPONSE_ENVELOPE_CHANGED',
    editPublished: (document) => {
      const content = document.paths['/v1/authors/{id}'].get.responses['200'].content['application/json']
      content.schema = { type: 'array', items: content.schema }
    },
  },
  { rule: 'RESPONSE_FIELD_REMOVED', edit: removePages, change: REMOVED_PAGES },
  { rule: 'RESPONSE_FIELD_RENAMED', edit: renameTitle, change: RENAMED_TITLE },
  {
    rule: 'RESPONSE_FIELD_BECAME_OPTIONAL',
    editPublished: (document) => {
      // `author` is there only with ?include=author: as if an older release had always embedded it.
      const book = document.components.schemas.Book
      book.required = [...book.required, 'author']
    },
  },
  { rule: 'RESPONSE_NULLABLE_ADDED', edit: field(TITLE, TITLE.replace(' }', ', nullable: true }')) },
  { rule: 'RESPONSE_ENUM_VALUE_ADDED', edit: field(STATUS, STATUS.replace('published]', 'published, archived]')) },
  { rule: 'REQUEST_FIELD_REMOVED', edit: removePages, change: REMOVED_PAGES },
  { rule: 'REQUEST_FIELD_RENAMED', edit: renameTitle, change: RENAMED_TITLE },
  {
    rule: 'REQUEST_FIELD_REQUIRED_ADDED',
    edit: field(PRICE, `${PRICE}\n      isbn: { type: string, required: true }`),
    change: 'add_field: { resource: books, field: isbn, older_value: unknown }',
  },
  { rule: 'REQUEST_FIELD_BECAME_REQUIRED', edit: field(PAGES, PAGES.replace(' }', ', required: true }')) },
  {
    rule: 'REQUEST_PARAMETER_REQUIRED_ADDED',
    edit: REQUIRE_IF_MATCH,
    // As published before `If-Match` was documented on every write.
    editPublished: (document) => {
      for (const operation of Object.values(document.paths).flatMap((path: any) => Object.values(path)) as any[]) {
        operation.parameters = operation.parameters?.filter(({ name }: { name?: string }) => name !== 'If-Match')
      }
    },
  },
  { rule: 'REQUEST_PARAMETER_BECAME_REQUIRED', edit: REQUIRE_IF_MATCH },
  { rule: 'REQUEST_NULLABLE_REMOVED', edit: field(PRICE, 'price: { type: number }') },
  { rule: 'REQUEST_ENUM_VALUE_REMOVED', edit: field(STATUS, STATUS.replace(', published]', ']')) },
  { rule: 'REQUEST_MAX_LENGTH_DECREASED', edit: field(TITLE, TITLE.replace('300', '100')) },
  { rule: 'REQUEST_MIN_LENGTH_INCREASED', edit: field(TITLE, TITLE.replace('min_length: 1', 'min_length: 3')) },
  { rule: 'REQUEST_MINIMUM_INCREASED', edit: field(PAGES, PAGES.replace('minimum: 1', 'minimum: 2')) },
  { rule: 'REQUEST_MAXIMUM_DECREASED', edit: field(PAGES, PAGES.replace('1000', '500')) },
  { rule: 'REQUEST_MAX_ITEMS_DECREASED', edit: replace('include_max: 3', 'include_max: 2') },
  { rule: 'REQUEST_PATTERN_CHANGED', edit: field(TITLE, TITLE.replace(' }', ', pattern: "^[A-Z]" }')) },
  { rule: 'FIELD_TYPE_CHANGED', edit: field(PAGES, 'pages: { type: string }') },
  { rule: 'QUERY_PARAMETER_REMOVED', edit: replace('title: [eq, contains]', 'title: [contains]') },
  { rule: 'FILTER_OPERATOR_REMOVED', edit: replace('pages: [gte, lte]', 'pages: [gte]') },
  { rule: 'SORT_FIELD_REMOVED', edit: replace('sort: [title]', 'sort: [pages]') },
  { rule: 'INCLUDE_PATH_REMOVED', edit: replace('    include: [author]\n', '') },
  { rule: 'PER_PAGE_MAX_DECREASED', edit: replace('per_page_max: 100', 'per_page_max: 50') },
  {
    rule: 'SECURITY_REQUIREMENT_ADDED',
    edit: replace('      update: authenticated\n', '      update: authenticated\n      create: authenticated\n'),
    change: 'change_access: { resource: books, operation: create, was: public }',
  },
  {
    rule: 'SECURITY_TIGHTENED',
    edit: replace('delete: { scopes: [books:admin] }', 'delete: { scopes: [books:admin, books:delete] }'),
    change: 'change_access: { resource: books, operation: delete, was: { scopes: [books:admin] } }',
  },
  {
    rule: 'OWNER_RULE_ADDED',
    edit: replace('      update: authenticated\n', '      update: owner\n'),
    change: 'change_access: { resource: books, operation: update, was: authenticated }',
  },
]

/** The manifest with v2 declaring `change`, v1 deprecated as the docs advise. */
export function withV2(manifest: string, change: string): string {
  return replace(
    'versions:\n  v1: {}\n',
    `versions:\n  v1: { deprecated: 2027-01-15 }\n  v2:\n    changes:\n      - ${change}\n        why: the scenario's break\n`,
  )(manifest)
}
