import { DELETED_QUERY_NAME, RESERVED_QUERY_NAMES } from '../../runtime/contract/query-rules.js'
import { isServerManagedField, SERVER_MANAGED_FIELDS, SOFT_DELETE_FIELD } from '../../runtime/contract/field-type.js'
import { asRecord } from '../manifest/as-record.js'
import { relationKeyOf } from '../names/derive-names.js'
import type { CheckContext } from './check-context.js'
import { describeValue } from './describe-value.js'
import { explainUnsafeName } from './explain-unsafe-name.js'
import { findCaseProblem, splitWords } from './find-case-problem.js'
import { findParentKey, type ParentKey } from './list-resource-fields.js'
import { listResourceEntries } from './list-resource-entries.js'

/**
 * UNSAFE_NAME, FIELD_LOWER_SNAKE_CASE and FIELD_RESERVED for field names, at
 * the field's key. A badly cased name whose fix is reserved (`createdAt`) is
 * reported as FIELD_RESERVED, since renaming it would not help. A field that
 * repeats a generated foreign key (the parent key, a relation's `<name>_id`)
 * is reported here, at the field: removing it is the fix.
 */
export function checkFieldNames(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const field of listResourceEntries(data, 'fields')) {
    const at = context.atKey(field.path)
    const unsafe = explainUnsafeName(field.name, 'field')
    if (unsafe !== null) {
      context.report('UNSAFE_NAME', `field name ${describeValue(field.name)} ${unsafe}`, at)
      continue
    }
    const fix = splitWords(field.name).join('_')
    const reserved = explainReserved(fix, findParentKey(field.resourceValue, resources), field.resourceValue)
    if (reserved !== null) {
      const looksLike = fix === field.name ? '' : ` looks like "${fix}", which`
      context.report('FIELD_RESERVED', `field "${field.name}"${looksLike} ${reserved}`, at)
      continue
    }
    if (findCaseProblem(field.name, '_') !== null) {
      const hint = fix !== '' && explainUnsafeName(fix, 'field') === null ? `; did you mean "${fix}"?` : ''
      context.report('FIELD_LOWER_SNAKE_CASE', `field "${field.name}" must be lower_snake_case${hint}`, at)
    }
  }
}

function explainReserved(
  name: string,
  parentKey: ParentKey | null,
  resource: Readonly<Record<string, unknown>>,
): string | null {
  if (isServerManagedField(name)) {
    return `is managed by the server: every resource has ${Object.keys(SERVER_MANAGED_FIELDS).join(', ')} and clients cannot set them; remove it`
  }
  if (name === SOFT_DELETE_FIELD && resource.soft_delete === true) {
    return 'is managed by the server: soft_delete: true stamps it when a record is deleted; remove it'
  }
  if (name === DELETED_QUERY_NAME && resource.soft_delete === true) {
    return `would clash with the query parameter ?${name}= of soft_delete: true; rename it`
  }
  if (name === parentKey?.key) {
    return `is the foreign key generated from parent "${parentKey.parent}" (set from the path or the body); remove it`
  }
  const relation = findBelongsToWithKey(resource, name)
  if (relation !== null) {
    return `is the foreign key generated from relation "${relation}"; remove it (the relation adds it, with the same type)`
  }
  if ((RESERVED_QUERY_NAMES as readonly string[]).includes(name)) {
    return `would clash with the collection query parameter ?${name}=; rename it`
  }
  return null
}

/** The belongs-to relation of `resource` whose generated key is `key`, if any. */
function findBelongsToWithKey(resource: Readonly<Record<string, unknown>>, key: string): string | null {
  const relations = asRecord(resource.relations) ?? {}
  const found = Object.keys(relations).find(
    (name) => relationKeyOf(name) === key && asRecord(relations[name])?.many !== true,
  )
  return found ?? null
}
