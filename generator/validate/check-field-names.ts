import { singularOf } from '../manifest/singular-of.js'
import { asRecord } from './as-record.js'
import type { CheckContext } from './check-context.js'
import { explainUnsafeName } from './explain-unsafe-name.js'
import { findCaseProblem } from './find-case-problem.js'
import { listFields } from './list-fields.js'
import { QUERY_PARAMETER_NAMES, SERVER_MANAGED_FIELDS } from './rules.js'
import { splitWords } from './split-words.js'

/**
 * UNSAFE_NAME, FIELD_LOWER_SNAKE_CASE and FIELD_RESERVED for field names, at
 * the field's key. A badly cased name whose fix is reserved (`createdAt`) is
 * reported as FIELD_RESERVED, since renaming it would not help.
 */
export function checkFieldNames(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const field of listFields(data)) {
    const at = context.atKey(field.path)
    const unsafe = explainUnsafeName(field.name, 'field')
    if (unsafe !== null) {
      context.report('UNSAFE_NAME', `field name ${JSON.stringify(field.name)} ${unsafe}`, at)
      continue
    }
    const fix = splitWords(field.name).join('_')
    const reserved = explainReserved(fix, findParentKey(field.resourceValue, resources))
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

interface ParentKey {
  readonly parent: string
  readonly key: string
}

/** The foreign key a resource's `parent` generates (`order_id`), when the parent exists. */
function findParentKey(
  resource: Readonly<Record<string, unknown>>,
  resources: Readonly<Record<string, unknown>>,
): ParentKey | null {
  const parent = resource.parent
  if (typeof parent !== 'string' || !Object.hasOwn(resources, parent)) return null
  const declared = asRecord(resources[parent])?.singular
  const singular = singularOf(parent, typeof declared === 'string' ? declared : undefined)
  return { parent, key: `${singular.replaceAll('-', '_')}_id` }
}

function explainReserved(name: string, parentKey: ParentKey | null): string | null {
  if (SERVER_MANAGED_FIELDS.includes(name)) {
    return `is managed by the server: every resource has ${SERVER_MANAGED_FIELDS.join(', ')} and clients cannot set them; remove it`
  }
  if (name === parentKey?.key) {
    return `is the foreign key generated from parent "${parentKey.parent}" (set from the path or the body); remove it`
  }
  if (QUERY_PARAMETER_NAMES.includes(name)) {
    return `would clash with the collection query parameter ?${name}=; rename it`
  }
  return null
}
