import { asRecord } from '../manifest/as-record.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import { relationKeyOf } from '../names/derive-names.js'
import type { CheckContext } from './check-context.js'
import { describeValue } from './describe-value.js'
import { listResourceEntries } from './list-resource-entries.js'
import { listResourceFields } from './list-resource-fields.js'

const RESOURCE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/
const FIELD_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/

/** One `renamed_from`, with what its old name may not collide with. */
interface Rename {
  /** `field "title" of resource "posts"` */
  readonly what: string
  readonly name: string
  readonly previous: string
  readonly at: ManifestPath
  readonly form: { readonly pattern: RegExp; readonly hint: string }
  /** What in this manifest still has the old name (or its column), if anything: `field "writer_id"`. */
  readonly inUse: string | null
  /** The old table or column, which only one rename may claim. */
  readonly claim: string
}

/**
 * RENAMED_FROM, at the value: the old name has the form of the names it
 * renames, differs from the own name, is not in use (another resource; a
 * field, relation or relation key of the same resource), and no other rename
 * claims the same old table or column. The schema has checked it is a string.
 */
export function checkRenames(context: CheckContext, data: unknown): void {
  const claimed = new Map<string, Rename>()
  for (const rename of listRenames(data)) {
    const problem = explainRename(rename, claimed.get(rename.claim))
    if (problem !== null) {
      context.report('RENAMED_FROM', `renamed_from of ${rename.what} ${problem}`, context.atValue(rename.at))
      continue
    }
    claimed.set(rename.claim, rename)
  }
}

function explainRename(rename: Rename, claimedBy: Rename | undefined): string | null {
  const { previous } = rename
  if (!rename.form.pattern.test(previous)) {
    return `must be the name it had before, ${rename.form.hint}; found ${describeValue(previous)}`
  }
  if (previous === rename.name) return 'is its own name; write the name it had before, or remove renamed_from'
  if (rename.inUse !== null) {
    return (
      `names "${previous}", but ${rename.inUse} is still in this manifest; an old name must be free: ` +
      `remove renamed_from if "${previous}" was not renamed, or rename ${rename.inUse} too`
    )
  }
  if (claimedBy !== undefined) {
    return `names "${previous}", which ${claimedBy.what} already names as its old name; keep renamed_from only on the one that had that name`
  }
  return null
}

function listRenames(data: unknown): Rename[] {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  const renames: Rename[] = []
  for (const [name, value] of Object.entries(resources)) {
    const previous = asRecord(value)?.renamed_from
    if (typeof previous !== 'string') continue
    renames.push({
      what: `resource "${name}"`,
      name,
      previous,
      at: ['resources', name, 'renamed_from'],
      form: { pattern: RESOURCE_NAME, hint: 'a resource name (lowercase words joined by hyphens)' },
      inUse: Object.hasOwn(resources, previous) ? `resource "${previous}"` : null,
      claim: previous,
    })
  }
  const fieldInUse = (resource: string, column: string) =>
    listResourceFields(resources, resource).some((field) => field.name === column) ? `field "${column}"` : null
  for (const field of listResourceEntries(data, 'fields')) {
    const previous = field.options?.renamed_from
    if (typeof previous !== 'string') continue
    renames.push({
      what: `field "${field.name}" of resource "${field.resource}"`,
      name: field.name,
      previous,
      at: [...field.path, 'renamed_from'],
      form: { pattern: FIELD_NAME, hint: 'a field name (lower_snake_case)' },
      inUse: fieldInUse(field.resource, previous),
      claim: `${field.resource}.${previous}`,
    })
  }
  for (const relation of listResourceEntries(data, 'relations')) {
    const previous = relation.options?.renamed_from
    // A has-many adds no column; checkRelations reports renamed_from on one.
    if (typeof previous !== 'string' || relation.options?.many === true) continue
    const relations = asRecord(relation.resourceValue.relations) ?? {}
    renames.push({
      what: `relation "${relation.name}" of resource "${relation.resource}"`,
      name: relation.name,
      previous,
      at: [...relation.path, 'renamed_from'],
      form: { pattern: FIELD_NAME, hint: 'a relation name (lower_snake_case)' },
      inUse: Object.hasOwn(relations, previous)
        ? `relation "${previous}"`
        : fieldInUse(relation.resource, relationKeyOf(previous)),
      claim: `${relation.resource}.${relationKeyOf(previous)}`,
    })
  }
  return renames
}
