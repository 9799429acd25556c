import { isServerManagedField } from '../../runtime/contract/field-type.js'
import { asRecord } from '../manifest/as-record.js'
import { relationKeyOf } from '../names/derive-names.js'
import { MAX_SQL_IDENTIFIER_LENGTH } from '../names/identifiers.js'
import type { CheckContext } from './check-context.js'
import { describeValue, hintUnknownName } from './describe-value.js'
import { explainUnsafeName } from './explain-unsafe-name.js'
import { findCaseProblem, splitWords } from './find-case-problem.js'
import { findParentKey, listResourceFields } from './list-resource-fields.js'
import { listResourceEntries, type ListedEntry } from './list-resource-entries.js'

/**
 * Each relation on its own: its name (UNSAFE_NAME, also for a belongs-to key
 * too long for PostgreSQL, FIELD_LOWER_SNAKE_CASE, RELATION_NAME_CLASH, at
 * the relation's key), its target
 * (RELATION_TARGET_UNKNOWN, at `resource`) and its options (RELATION_OPTIONS,
 * at the option's key; ON_DELETE_SET_NULL_REQUIRED, at the value). How relations combine is checkHasMany's and
 * checkReferenceCycles' business.
 */
export function checkRelations(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const relation of listResourceEntries(data, 'relations')) {
    checkRelationName(context, relation, resources)
    if (relation.options === null) continue
    checkTarget(context, relation, relation.options, Object.keys(resources))
    checkOptions(context, relation, relation.options)
  }
}

function checkRelationName(
  context: CheckContext,
  relation: ListedEntry,
  resources: Readonly<Record<string, unknown>>,
): void {
  const { name } = relation
  const at = context.atKey(relation.path)
  const unsafe = explainUnsafeName(name, 'relation')
  if (unsafe !== null) {
    context.report('UNSAFE_NAME', `relation name ${describeValue(name)} ${unsafe}`, at)
    return
  }
  if (findCaseProblem(name, '_') !== null) {
    const fix = splitWords(name).join('_')
    context.report('FIELD_LOWER_SNAKE_CASE', `relation "${name}" must be lower_snake_case; did you mean "${fix}"?`, at)
    return
  }
  const key = relationKeyOf(name)
  if (relation.options?.many !== true && key.length > MAX_SQL_IDENTIFIER_LENGTH) {
    context.report(
      'UNSAFE_NAME',
      `relation name "${name}" adds the foreign key column "${key}", which is ${key.length} characters long; PostgreSQL cuts names longer than ${MAX_SQL_IDENTIFIER_LENGTH} characters (so two could become one); shorten the relation name to at most ${MAX_SQL_IDENTIFIER_LENGTH - (key.length - name.length)} characters`,
      at,
    )
    return
  }
  const clash = explainNameClash(relation, resources)
  if (clash !== null) {
    context.report('RELATION_NAME_CLASH', `relation "${name}" of resource "${relation.resource}" ${clash}`, at)
  }
}

/**
 * Why the relation's name, or its generated key, is taken. A declared field
 * named like the key is reported at the field instead (FIELD_RESERVED).
 */
function explainNameClash(relation: ListedEntry, resources: Readonly<Record<string, unknown>>): string | null {
  const { name, resourceValue } = relation
  const parentKey = findParentKey(resourceValue, resources)
  const field = listResourceFields(resources, relation.resource).find((candidate) => candidate.name === name)
  if (field !== undefined) {
    let origin = ''
    if (isServerManagedField(name)) origin = ', which the server manages'
    else if (name === parentKey?.key) origin = `, the key of parent "${parentKey.parent}"`
    else if (field.foreignKey) origin = `, the key of relation "${name.slice(0, -'_id'.length)}"`
    return `has the name of field "${name}"${origin}: an included record would replace that field in responses; rename the relation`
  }
  const many = relation.options?.many === true
  if (!many && relationKeyOf(name) === parentKey?.key) {
    const target = relation.options?.resource
    const fix =
      target === parentKey.parent ? `parent: already links the two; remove the relation` : 'rename the relation'
    return `would add the foreign key "${parentKey.key}", which parent "${parentKey.parent}" already adds; ${fix}`
  }
  return null
}

function checkTarget(
  context: CheckContext,
  relation: ListedEntry,
  options: Readonly<Record<string, unknown>>,
  names: readonly string[],
): void {
  const target = options.resource
  if (typeof target !== 'string' || names.includes(target)) return
  context.report(
    'RELATION_TARGET_UNKNOWN',
    `resource ${JSON.stringify(target)} of relation "${relation.name}" is not a resource in this manifest${hintUnknownName(target, names, 'declared resources')}`,
    context.atValue([...relation.path, 'resource']),
  )
}

function checkOptions(context: CheckContext, relation: ListedEntry, options: Readonly<Record<string, unknown>>): void {
  const report = (option: string, message: string) =>
    context.report('RELATION_OPTIONS', message, context.atKey([...relation.path, option]))
  if (options.many === true) {
    for (const option of ['required', 'on_delete', 'renamed_from'] as const) {
      if (options[option] === undefined) continue
      report(
        option,
        `"${option}" applies to belongs-to relations; has-many relation "${relation.name}" adds no foreign key here (the link back on "${String(options.resource)}" does); remove it`,
      )
    }
    return
  }
  if (options.on_delete === 'set_null' && options.required === true) {
    context.report(
      'ON_DELETE_SET_NULL_REQUIRED',
      `on_delete: set_null on relation "${relation.name}" cannot work: it is required, so its key may not be null; remove required: true, or use cascade or restrict`,
      context.atValue([...relation.path, 'on_delete']),
    )
  }
  for (const option of ['via', 'max_items'] as const) {
    if (options[option] === undefined) continue
    report(
      option,
      `"${option}" applies to has-many relations; relation "${relation.name}" is a belongs-to: add many: true, or remove ${option}`,
    )
  }
}
