import { describe, expect, it } from 'vitest'
import { checkDeclaredChanges } from '../../generator/contract/check-declared-changes.js'
import type { VersionChange } from '../../generator/versions/version-change.js'
import {
  contractDocument,
  pathsOf,
  propertiesOf,
  renameKey,
  schemasOf,
  type ContractDocument,
} from './contract-document.js'

type Node = Record<string, unknown>

/** v2 of the test document with `edit` applied, compared with v1. */
function check(edit: (v2: ContractDocument) => void, changes: readonly VersionChange[]) {
  const v2 = contractDocument('v2')
  edit(v2)
  const report = checkDeclaredChanges(contractDocument('v1'), v2, changes)
  return { undeclared: report.undeclared.map(({ rule, operation }) => `${rule} ${operation}`), unseen: report.unseen }
}

const renameBody = (v2: ContractDocument) => {
  for (const schema of ['Post', 'PostCreate', 'PostUpdate']) renameKey(propertiesOf(v2, schema), 'body', 'content')
}
const renameBodyChange: VersionChange = {
  kind: 'rename_field',
  resource: 'posts',
  from: 'body',
  to: 'content',
  why: 'content is the name used everywhere else',
}

describe('checkDeclaredChanges', () => {
  it('passes versions that differ only in their prefix', () => {
    expect(check(() => {}, [])).toEqual({ undeclared: [], unseen: [] })
  })

  it('explains a renamed field in every body by rename_field', () => {
    expect(check(renameBody, [renameBodyChange])).toEqual({ undeclared: [], unseen: [] })
  })

  it('reports each breaking difference no change declares', () => {
    expect(check(renameBody, [])).toEqual({
      undeclared: [
        'RESPONSE_FIELD_RENAMED GET /v2/posts',
        'REQUEST_FIELD_RENAMED POST /v2/posts',
        'REQUEST_FIELD_RENAMED PATCH /v2/posts/{id}',
      ],
      unseen: [],
    })
  })

  it('reports a declared change the difference does not show', () => {
    expect(check(() => {}, [renameBodyChange])).toEqual({ undeclared: [], unseen: [renameBodyChange] })
  })

  it('explains a removed field, its filter and its sort by remove_field', () => {
    const removeTitle: VersionChange = {
      kind: 'remove_field',
      resource: 'posts',
      field: 'title',
      was: { type: 'string' },
      filter: null,
      sort: false,
      why: 'titles moved to the body',
    }
    const edit = (v2: ContractDocument) => {
      for (const schema of ['Post', 'PostCreate', 'PostUpdate']) delete propertiesOf(v2, schema).title
      schemasOf(v2).PostCreate!.required = []
      const sort = (v2.components.parameters['Post.sort'].schema as { items: { enum: string[] } }).items
      sort.enum = ['id', '-id']
    }
    expect(check(edit, [removeTitle])).toEqual({ undeclared: [], unseen: [] })
  })

  it('explains a new required request field by add_field', () => {
    const addCurrency: VersionChange = {
      kind: 'add_field',
      resource: 'posts',
      field: 'currency',
      olderValue: 'EUR',
      why: 'multi-currency',
    }
    const edit = (v2: ContractDocument) => {
      propertiesOf(v2, 'PostCreate').currency = { type: 'string' }
      schemasOf(v2).PostCreate!.required = ['title', 'currency']
    }
    expect(check(edit, [addCurrency])).toEqual({ undeclared: [], unseen: [] })
    expect(check(edit, []).undeclared).toEqual(['REQUEST_FIELD_REQUIRED_ADDED POST /v2/posts'])
  })

  it('explains a renamed resource, its foreign key, embedded record, filter and include path by rename_resource', () => {
    const rename: VersionChange = { kind: 'rename_resource', from: 'authors', to: 'writers', why: 'writers' }
    const edit = (v2: ContractDocument) => {
      renameKey(pathsOf(v2), '/v2/authors', '/v2/writers')
      renameKey(pathsOf(v2), '/v2/authors/{id}', '/v2/writers/{id}')
      for (const schema of ['Post', 'PostCreate']) renameKey(propertiesOf(v2, schema), 'author_id', 'writer_id')
      renameKey(propertiesOf(v2, 'Post'), 'author', 'writer')
      v2.components.parameters['filter.author_id.eq'].name = 'filter[writer_id][eq]'
      v2.components.parameters['Post.include'].schema.items.enum = ['writer', 'comments']
    }
    expect(check(edit, [rename])).toEqual({ undeclared: [], unseen: [] })
    expect(check(edit, []).undeclared).toEqual([
      'RESOURCE_RENAMED /v1/authors',
      'INCLUDE_PATH_REMOVED GET /v2/posts',
      'FILTER_OPERATOR_REMOVED GET /v2/posts',
      'RESPONSE_FIELD_RENAMED GET /v2/posts',
      'RESPONSE_FIELD_RENAMED GET /v2/posts',
      'REQUEST_FIELD_RENAMED POST /v2/posts',
    ])
  })

  it('explains paths that left their parent by reroot_resource, and removed ones by remove_resource', () => {
    const changes: VersionChange[] = [
      { kind: 'reroot_resource', resource: 'comments', fromParent: 'posts', why: 'top level only' },
      { kind: 'remove_resource', resource: 'authors', was: { fields: {} }, why: 'gone' },
    ]
    const edit = (v2: ContractDocument) => {
      delete pathsOf(v2)['/v2/posts/{post_id}/comments']
      delete pathsOf(v2)['/v2/posts/{post_id}/comments/{comment_id}']
      delete pathsOf(v2)['/v2/authors']
      delete pathsOf(v2)['/v2/authors/{id}']
    }
    expect(check(edit, changes)).toEqual({ undeclared: [], unseen: [] })
    expect(check(edit, []).undeclared).toEqual([
      'RESOURCE_REROOTED /v1/posts/{post_id}/comments',
      'PATH_REMOVED /v1/authors',
      'PATH_REMOVED /v1/authors/{id}',
    ])
  })
})
