import { describe, expect, it } from 'vitest'
import { compareContracts } from '../../generator/contract/compare-contracts.js'
import { formatFinding } from '../../generator/contract/contract-finding.js'
import { CONTRACT_RULES, type ContractRuleId } from '../../generator/contract/contract-rules.js'
import {
  contractDocument,
  pathsOf,
  propertiesOf,
  renameKey,
  schemasOf,
  type ContractDocument,
} from './contract-document.js'

interface RuleCase {
  readonly edit: (document: ContractDocument) => void
  readonly operation: string
  readonly subject: string
  readonly before: string
  readonly after: string
}

type Node = Record<string, unknown>
const parameters = (document: ContractDocument) => document.components.parameters as unknown as Record<string, Node>
const listPosts = (document: ContractDocument) => pathsOf(document)['/v1/posts']!.get as { parameters: unknown[] }
const posts = (document: ContractDocument) => pathsOf(document)['/v1/posts/{id}']!
const enumOf = (parameter: Node) => (parameter.schema as { items: { enum: string[] } }).items

/** One small edit per rule, and the finding it must give. */
const CASES: Record<ContractRuleId, RuleCase> = {
  PATH_REMOVED: {
    edit: (document) => delete pathsOf(document)['/v1/authors/{id}'],
    operation: '/v1/authors/{id}',
    subject: '',
    before: '/v1/authors/{id}',
    after: '(absent)',
  },
  OPERATION_REMOVED: {
    edit: (document) => delete pathsOf(document)['/v1/posts/{id}']!.delete,
    operation: 'DELETE /v1/posts/{id}',
    subject: '',
    before: 'DELETE /v1/posts/{id}',
    after: '(absent)',
  },
  RESOURCE_RENAMED: {
    edit: (document) => {
      renameKey(pathsOf(document), '/v1/authors', '/v1/writers')
      renameKey(pathsOf(document), '/v1/authors/{id}', '/v1/writers/{id}')
    },
    operation: '/v1/authors',
    subject: '',
    before: '/v1/authors',
    after: '/v1/writers',
  },
  RESOURCE_REROOTED: {
    edit: (document) => {
      delete pathsOf(document)['/v1/posts/{post_id}/comments']
      delete pathsOf(document)['/v1/posts/{post_id}/comments/{comment_id}']
    },
    operation: '/v1/posts/{post_id}/comments',
    subject: '',
    before: 'under posts (/v1/posts/{post_id}/comments)',
    after: 'top level only (/v1/comments)',
  },
  SUCCESS_STATUS_REMOVED: {
    edit: (document) => renameKey(pathsOf(document)['/v1/posts']!.post!.responses as Node, '201', '200'),
    operation: 'POST /v1/posts',
    subject: 'response status',
    before: '201',
    after: '200',
  },
  SUCCESS_STATUS_ADDED: {
    edit: (document) => {
      const responses = pathsOf(document)['/v1/posts/{id}']!.delete!.responses as Node
      responses['200'] = { content: { 'application/json': { schema: { type: 'object' } } } }
    },
    operation: 'DELETE /v1/posts/{id}',
    subject: 'response status',
    before: '204',
    after: '200',
  },
  RESPONSE_MEDIA_TYPE_CHANGED: {
    edit: (document) => {
      const ok = (pathsOf(document)['/v1/posts']!.get!.responses as Record<string, { content: Node }>)['200']!
      renameKey(ok.content, 'application/json', 'application/vnd.api+json')
    },
    operation: 'GET /v1/posts',
    subject: 'response media type',
    before: 'application/json',
    after: 'application/vnd.api+json',
  },
  REQUEST_MEDIA_TYPE_REMOVED: {
    edit: (document) => {
      delete (pathsOf(document)['/v1/posts/{id}']!.patch!.requestBody as { content: Node }).content[
        'application/merge-patch+json'
      ]
    },
    operation: 'PATCH /v1/posts/{id}',
    subject: 'request body',
    before: 'application/merge-patch+json',
    after: 'application/json',
  },
  REQUEST_MEDIA_TYPE_ADDED: {
    edit: (document) => {
      const content = (pathsOf(document)['/v1/posts']!.post!.requestBody as { content: Node }).content
      content['application/merge-patch+json'] = content['application/json']
    },
    operation: 'POST /v1/posts',
    subject: 'request body',
    before: 'application/json',
    after: 'application/merge-patch+json',
  },
  RESPONSE_ENVELOPE_CHANGED: {
    edit: (document) => delete propertiesOf(document, 'PostPage').links,
    operation: 'GET /v1/posts',
    subject: 'response field links',
    before: 'links',
    after: '(absent)',
  },
  RESPONSE_FIELD_REMOVED: {
    edit: (document) => delete propertiesOf(document, 'Post').status,
    operation: 'GET /v1/posts',
    subject: 'response field data[].status',
    before: 'status',
    after: '(absent)',
  },
  RESPONSE_FIELD_RENAMED: {
    edit: (document) => renameKey(propertiesOf(document, 'Post'), 'body', 'content'),
    operation: 'GET /v1/posts',
    subject: 'response field data[].body',
    before: 'body',
    after: 'content',
  },
  RESPONSE_FIELD_ADDED: {
    edit: (document) => (propertiesOf(document, 'Post').summary = { type: 'string' }),
    operation: 'GET /v1/posts',
    subject: 'response field data[].summary',
    before: '(absent)',
    after: 'summary (string)',
  },
  RESPONSE_FIELD_BECAME_OPTIONAL: {
    edit: (document) => (schemasOf(document).Post!.required = ['id', 'body', 'status', 'author_id']),
    operation: 'GET /v1/posts',
    subject: 'response field data[].title',
    before: 'always present',
    after: 'may be absent',
  },
  RESPONSE_NULLABLE_ADDED: {
    edit: (document) => (propertiesOf(document, 'Post').title!.type = ['string', 'null']),
    operation: 'GET /v1/posts',
    subject: 'response field data[].title',
    before: 'string',
    after: 'string or null',
  },
  RESPONSE_ENUM_VALUE_ADDED: {
    edit: (document) => (propertiesOf(document, 'Post').status!.enum = ['draft', 'published', 'archived']),
    operation: 'GET /v1/posts',
    subject: 'response field data[].status',
    before: '"draft", "published"',
    after: '"draft", "published", "archived"',
  },
  REQUEST_FIELD_REMOVED: {
    edit: (document) => delete propertiesOf(document, 'PostCreate').status,
    operation: 'POST /v1/posts',
    subject: 'request field status',
    before: 'status',
    after: '(absent)',
  },
  REQUEST_FIELD_RENAMED: {
    edit: (document) => renameKey(propertiesOf(document, 'PostCreate'), 'body', 'content'),
    operation: 'POST /v1/posts',
    subject: 'request field body',
    before: 'body',
    after: 'content',
  },
  REQUEST_FIELD_ADDED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').summary = { type: 'string' }),
    operation: 'POST /v1/posts',
    subject: 'request field summary',
    before: '(absent)',
    after: 'summary (string)',
  },
  REQUEST_FIELD_REQUIRED_ADDED: {
    edit: (document) => {
      propertiesOf(document, 'PostCreate').currency = { type: 'string' }
      schemasOf(document).PostCreate!.required = ['title', 'currency']
    },
    operation: 'POST /v1/posts',
    subject: 'request field currency',
    before: '(absent)',
    after: 'currency (string, required)',
  },
  REQUEST_FIELD_BECAME_REQUIRED: {
    edit: (document) => (schemasOf(document).PostCreate!.required = ['title', 'body']),
    operation: 'POST /v1/posts',
    subject: 'request field body',
    before: 'optional',
    after: 'required',
  },
  REQUEST_PARAMETER_REQUIRED_ADDED: {
    edit: (document) => listPosts(document).parameters.push({ name: 'tenant', in: 'query', required: true }),
    operation: 'GET /v1/posts',
    subject: 'query parameter tenant',
    before: '(absent)',
    after: 'tenant',
  },
  REQUEST_PARAMETER_BECAME_REQUIRED: {
    edit: (document) => (parameters(document)['Post.status']!.required = true),
    operation: 'GET /v1/posts',
    subject: 'query parameter status',
    before: 'optional',
    after: 'required',
  },
  REQUEST_NULLABLE_REMOVED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').price!.type = 'number'),
    operation: 'POST /v1/posts',
    subject: 'request field price',
    before: 'number or null',
    after: 'number',
  },
  REQUEST_ENUM_VALUE_REMOVED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').status!.enum = ['draft']),
    operation: 'POST /v1/posts',
    subject: 'request field status',
    before: '"draft", "published"',
    after: '"draft"',
  },
  REQUEST_ENUM_VALUE_ADDED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').status!.enum = ['draft', 'published', 'archived']),
    operation: 'POST /v1/posts',
    subject: 'request field status',
    before: '"draft", "published"',
    after: '"draft", "published", "archived"',
  },
  REQUEST_MAX_LENGTH_DECREASED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').title!.maxLength = 100),
    operation: 'POST /v1/posts',
    subject: 'request field title',
    before: 'max_length 300',
    after: 'max_length 100',
  },
  REQUEST_MIN_LENGTH_INCREASED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').title!.minLength = 3),
    operation: 'POST /v1/posts',
    subject: 'request field title',
    before: 'min_length 1',
    after: 'min_length 3',
  },
  REQUEST_MINIMUM_INCREASED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').price!.minimum = 1),
    operation: 'POST /v1/posts',
    subject: 'request field price',
    before: 'minimum 0',
    after: 'minimum 1',
  },
  REQUEST_MAXIMUM_DECREASED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').price!.maximum = 500),
    operation: 'POST /v1/posts',
    subject: 'request field price',
    before: 'maximum 1000',
    after: 'maximum 500',
  },
  REQUEST_MAX_ITEMS_DECREASED: {
    edit: (document) => ((parameters(document)['Post.include']!.schema as Node).maxItems = 2),
    operation: 'GET /v1/posts',
    subject: 'query parameter include',
    before: 'max items 3',
    after: 'max items 2',
  },
  REQUEST_PATTERN_CHANGED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').title!.pattern = '^[a-z]'),
    operation: 'POST /v1/posts',
    subject: 'request field title',
    before: 'pattern ^[A-Z]',
    after: 'pattern ^[a-z]',
  },
  SECURITY_REQUIREMENT_ADDED: {
    edit: (document) => Object.assign(posts(document).patch!, { security: [{ user: [] }] }),
    operation: 'PATCH /v1/posts/{id}',
    subject: 'security',
    before: 'public',
    after: 'user',
  },
  SECURITY_TIGHTENED: {
    edit: (document) =>
      Object.assign(posts(document).delete!, { security: [{ user: ['posts:admin', 'posts:write'] }] }),
    operation: 'DELETE /v1/posts/{id}',
    subject: 'security',
    before: 'user [posts:admin]',
    after: 'user [posts:admin, posts:write]',
  },
  OWNER_RULE_ADDED: {
    edit: (document) =>
      Object.assign(posts(document).patch!, { 'x-restmint-access': { owner: { field: 'owner_sub', claim: 'sub' } } }),
    operation: 'PATCH /v1/posts/{id}',
    subject: 'access',
    before: 'any record',
    after: 'own records (owner_sub = sub)',
  },
  SECURITY_REMOVED: {
    edit: (document) => Object.assign(posts(document).delete!, { security: [] }),
    operation: 'DELETE /v1/posts/{id}',
    subject: 'security',
    before: 'user [posts:admin]',
    after: 'public',
  },
  SECURITY_LOOSENED: {
    edit: (document) =>
      Object.assign(posts(document).delete!, { security: [{ user: ['posts:admin'] }, { machine: [] }] }),
    operation: 'DELETE /v1/posts/{id}',
    subject: 'security',
    before: 'user [posts:admin]',
    after: 'user [posts:admin] or machine',
  },
  OWNER_RULE_REMOVED: {
    edit: (document) => delete (posts(document).delete as Node)['x-restmint-access'],
    operation: 'DELETE /v1/posts/{id}',
    subject: 'access',
    before: 'own records (owner_sub = sub)',
    after: 'any record',
  },
  DELETE_MADE_SOFT: {
    edit: (document) => ((posts(document).delete as Node)['x-restmint-soft-delete'] = true),
    operation: 'DELETE /v1/posts/{id}',
    subject: 'delete',
    before: 'removes the record',
    after: 'stamps deleted_at',
  },
  REQUEST_CONSTRAINT_RELAXED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').title!.maxLength = 500),
    operation: 'POST /v1/posts',
    subject: 'request field title',
    before: 'max_length 300',
    after: 'max_length 500',
  },
  FIELD_TYPE_CHANGED: {
    edit: (document) => (propertiesOf(document, 'PostCreate').author_id!.type = ['string', 'null']),
    operation: 'POST /v1/posts',
    subject: 'request field author_id',
    before: 'integer',
    after: 'string',
  },
  QUERY_PARAMETER_REMOVED: {
    edit: (document) => listPosts(document).parameters.splice(3, 1),
    operation: 'GET /v1/posts',
    subject: 'query parameter status',
    before: 'status',
    after: '(absent)',
  },
  QUERY_PARAMETER_ADDED: {
    edit: (document) => listPosts(document).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }),
    operation: 'GET /v1/posts',
    subject: 'query parameter q',
    before: '(absent)',
    after: 'q',
  },
  FILTER_OPERATOR_REMOVED: {
    edit: (document) => listPosts(document).parameters.splice(4, 1),
    operation: 'GET /v1/posts',
    subject: 'filter[price]',
    before: 'gte',
    after: '(none)',
  },
  FILTER_OPERATOR_ADDED: {
    edit: (document) =>
      listPosts(document).parameters.push({ name: 'filter[price][lte]', in: 'query', schema: { type: 'number' } }),
    operation: 'GET /v1/posts',
    subject: 'filter[price]',
    before: 'gte',
    after: 'gte, lte',
  },
  SORT_FIELD_REMOVED: {
    edit: (document) => (enumOf(parameters(document)['Post.sort']!).enum = ['id', '-id']),
    operation: 'GET /v1/posts',
    subject: 'query parameter sort',
    before: 'sort=title',
    after: '(absent)',
  },
  SORT_FIELD_ADDED: {
    edit: (document) => enumOf(parameters(document)['Post.sort']!).enum.push('status', '-status'),
    operation: 'GET /v1/posts',
    subject: 'query parameter sort',
    before: '(absent)',
    after: 'sort=status',
  },
  INCLUDE_PATH_REMOVED: {
    edit: (document) => (enumOf(parameters(document)['Post.include']!).enum = ['author']),
    operation: 'GET /v1/posts',
    subject: 'query parameter include',
    before: 'include=comments',
    after: '(absent)',
  },
  INCLUDE_PATH_ADDED: {
    edit: (document) => enumOf(parameters(document)['Post.include']!).enum.push('comments.post'),
    operation: 'GET /v1/posts',
    subject: 'query parameter include',
    before: '(absent)',
    after: 'include=comments.post',
  },
  PER_PAGE_MAX_DECREASED: {
    edit: (document) => ((parameters(document).per_page!.schema as Node).maximum = 50),
    operation: 'GET /v1/posts',
    subject: 'query parameter per_page',
    before: 'maximum 100',
    after: 'maximum 50',
  },
  PATH_ADDED: {
    edit: (document) => (pathsOf(document)['/v1/tags'] = { get: { tags: ['tags'], responses: {} } }),
    operation: '/v1/tags',
    subject: '',
    before: '(absent)',
    after: '/v1/tags',
  },
  OPERATION_ADDED: {
    edit: (document) => (pathsOf(document)['/v1/authors/{id}']!.delete = { tags: ['authors'], responses: {} }),
    operation: 'DELETE /v1/authors/{id}',
    subject: '',
    before: '(absent)',
    after: 'DELETE /v1/authors/{id}',
  },
}

describe('compareContracts', () => {
  it('finds nothing between a document and itself', () => {
    expect(compareContracts(contractDocument(), contractDocument())).toEqual([])
  })

  it('has a case for every rule', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(CONTRACT_RULES).sort())
  })

  it.each(Object.entries(CASES))('%s', (rule, { edit, operation, subject, before, after }) => {
    const current = contractDocument()
    edit(current)
    const findings = compareContracts(contractDocument(), current).filter((finding) => finding.rule === rule)
    const severity = CONTRACT_RULES[rule as ContractRuleId].severity
    expect(findings).toEqual([expect.objectContaining({ severity, operation, subject, before, after })])
  })

  it('reports a change to a shared schema once, where it is nearest the top of a response', () => {
    const current = contractDocument()
    delete propertiesOf(current, 'Comment').body
    const findings = compareContracts(contractDocument(), current)
    expect(findings.map(formatFinding)).toEqual([
      'RESPONSE_FIELD_REMOVED: GET /v1/comments: response field data[].body: body → (absent)',
    ])
  })

  it('compares the operations of a renamed resource under their new paths', () => {
    const current = contractDocument()
    renameKey(pathsOf(current), '/v1/authors', '/v1/writers')
    renameKey(pathsOf(current), '/v1/authors/{id}', '/v1/writers/{id}')
    delete pathsOf(current)['/v1/writers/{id}']!.get
    expect(compareContracts(contractDocument(), current).map(({ rule, operation }) => `${rule} ${operation}`)).toEqual([
      'RESOURCE_RENAMED /v1/authors',
      'OPERATION_REMOVED GET /v1/authors/{id}',
    ])
  })

  it('reads a resource removed and an unrelated one added as such, not as a rename', () => {
    const current = contractDocument()
    const tagRecord = { type: 'object', properties: { data: { type: 'object', properties: { label: {} } } } }
    const get = { tags: ['tags'], responses: { '200': { content: { 'application/json': { schema: tagRecord } } } } }
    delete pathsOf(current)['/v1/authors']
    delete pathsOf(current)['/v1/authors/{id}']
    Object.assign(pathsOf(current), { '/v1/tags': { get }, '/v1/tags/{id}': { get } })
    expect(compareContracts(contractDocument(), current).map(({ rule, operation }) => `${rule} ${operation}`)).toEqual([
      'PATH_REMOVED /v1/authors',
      'PATH_REMOVED /v1/authors/{id}',
      'PATH_ADDED /v1/tags',
      'PATH_ADDED /v1/tags/{id}',
    ])
  })

  it('matches paths without their version prefix', () => {
    const findings = compareContracts(contractDocument('v1'), contractDocument('v2'))
    expect(findings).toEqual([])
  })
})
