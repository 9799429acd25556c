import type { ManifestRelation, ManifestResource } from '../manifest/manifest.js'
import { foreignKeyOf, relationKeyOf, withoutIdSuffix } from '../names/derive-names.js'
import type { VersionChange } from './version-change.js'

type Resources = Record<string, ManifestResource>

/** The older version's resources, which change produced each part of them, and what the newer version calls each. */
export interface OlderResources {
  readonly resources: Resources
  /**
   * Manifest paths the changes wrote, joined with `/` (`resources/coupons`,
   * `resources/posts/fields/body`) → the index of the change in its list:
   * problems found in the older version are reported at that entry.
   */
  readonly origins: ReadonlyMap<string, number>
  readonly toNewer: NamesToNewer
}

/**
 * What the newer version calls each resource, field and relation of the older
 * one, by the older names; null where the newer version no longer has it.
 * Fields include the keys (the parent key, each belongs-to's `<name>_id`);
 * a field not listed (the server's `id`, `created_at`…, the owner) keeps its
 * name. A relation not listed has no newer counterpart.
 */
export type NamesToNewer = ReadonlyMap<string, ResourceNamesToNewer>

export interface ResourceNamesToNewer {
  /** The newer version's name of the resource; null when the newer version removed it. */
  readonly name: string | null
  readonly fields: ReadonlyMap<string, string | null>
  readonly relations: ReadonlyMap<string, string | null>
}

/** The older version's name of what the newer version calls resource `newer`: itself unless renamed. */
export function olderNameOf(toNewer: NamesToNewer, newer: string): string {
  for (const [older, names] of toNewer) if (names.name === newer) return older
  return newer
}

/** The working copy's names (older ones as the changes apply) → the newer version's. */
type NameTrack = Map<
  string,
  { name: string | null; fields: Map<string, string | null>; relations: Map<string, string | null> }
>

/**
 * Applies a version's changes backwards to its resources, giving the
 * resources of the version before it. Every change names things as the newer
 * version does, so field changes apply first, then resource renames, then
 * removed resources come back (their `was` is in the older version's terms, as
 * is a re-rooted resource's `from_parent`). A change whose target is missing is
 * skipped: checkDerivedVersions reports it.
 */
export function applyChangesBackwards(newer: Readonly<Resources>, changes: readonly VersionChange[]): OlderResources {
  let resources = structuredClone(newer) as Resources
  const origins = new Map<string, number>()
  const track = trackNames(newer)
  const olderNames = new Map(
    changes.flatMap((change) => (change.kind === 'rename_resource' ? [[change.to, change.from] as const] : [])),
  )
  const record = (index: number, resource: string, ...rest: string[]) => {
    const older = olderNames.get(resource) ?? resource
    origins.set(['resources', older, ...rest].join('/'), index)
    if (!origins.has(`resources/${older}`)) origins.set(`resources/${older}`, index)
  }
  changes.forEach((change, index) => {
    const resource = 'resource' in change ? resources[change.resource] : undefined
    if (change.kind === 'rename_field' && resource?.fields?.[change.to]) {
      resource.fields = renameKey(resource.fields, change.to, change.from)
      renameFieldMentions(resource, change.to, change.from)
      moveKey(track.get(change.resource)!.fields, change.to, change.from)
      record(index, change.resource, 'fields', change.from)
    } else if (change.kind === 'remove_field' && resource) {
      resource.fields = { ...resource.fields, [change.field]: structuredClone(change.was) }
      if (change.filter) resource.filter = { ...resource.filter, [change.field]: [...change.filter] }
      if (change.sort) resource.sort = [...(resource.sort ?? []), change.field]
      track.get(change.resource)!.fields.set(change.field, null)
      record(index, change.resource, 'fields', change.field)
    } else if (change.kind === 'add_field' && resource?.fields?.[change.field]) {
      resource.fields = withoutKey(resource.fields, change.field)
      renameFieldMentions(resource, change.field, null)
      track.get(change.resource)!.fields.delete(change.field)
      record(index, change.resource)
    } else if (change.kind === 'add_aggregate' && resource?.aggregate) {
      delete resource.aggregate
      record(index, change.resource)
    } else if (change.kind === 'add_soft_delete' && resource?.soft_delete === true) {
      // The older version keeps no deleted records in sight: no deleted_at, ?deleted= nor restorations, nor
      // the access rule for them. The storage soft-deletes all the same (buildStorage keeps the newest's).
      delete resource.soft_delete
      if (resource.access?.deleted !== undefined) {
        const { deleted: _forSoftDelete, ...access } = resource.access
        resource.access = access
      }
      record(index, change.resource)
    } else if (change.kind === 'change_access' && resource) {
      resource.access =
        change.operation === 'all'
          ? { all: structuredClone(change.was) }
          : { ...resource.access, [change.operation]: structuredClone(change.was) }
      record(index, change.resource, 'access')
    }
  })
  changes.forEach((change, index) => {
    if (change.kind !== 'add_resource' || !resources[change.resource]) return
    resources = withoutResource(resources, track, change.resource)
    origins.set(`resources/${change.resource}`, index)
  })
  changes.forEach((change, index) => {
    if (change.kind !== 'rename_resource' || !resources[change.to]) return
    resources = renameResource(resources, track, change.to, change.from)
    origins.set(`resources/${change.from}`, index)
  })
  changes.forEach((change, index) => {
    if (change.kind !== 'remove_resource' || resources[change.resource]) return
    resources[change.resource] = structuredClone(change.was)
    track.set(change.resource, { name: null, fields: new Map(), relations: new Map() })
    origins.set(`resources/${change.resource}`, index)
  })
  changes.forEach((change, index) => {
    if (change.kind !== 'reroot_resource') return
    const name = olderNames.get(change.resource) ?? change.resource
    if (!resources[name]) return
    rerootResource(resources, track, name, change.fromParent)
    origins.set(`resources/${name}`, index)
  })
  return { resources, origins, toNewer: track }
}

/** Every resource, field, key and relation of `newer` under its own name. */
function trackNames(newer: Readonly<Resources>): NameTrack {
  const same = (names: readonly string[]) => new Map<string, string | null>(names.map((name) => [name, name]))
  return new Map(
    Object.entries(newer).map(([name, resource]) => {
      const relations = Object.entries(resource.relations ?? {})
      const keys = relations.flatMap(([relation, { many }]) => (many === true ? [] : [relationKeyOf(relation)]))
      if (resource.parent) keys.push(foreignKeyOf(resource.parent, newer[resource.parent]?.singular))
      return [
        name,
        {
          name,
          fields: same([...Object.keys(resource.fields ?? {}), ...keys]),
          relations: same(relations.map(([relation]) => relation)),
        },
      ]
    }),
  )
}

/**
 * Renames resource `to` back to `from`, and with it what is named after it:
 * children's parent keys (`writer_id` → `author_id`), belongs-to relations
 * named after its singular and has-many ones named after it (`writer` →
 * `author`, `writers` → `authors`) with their keys, `via`s and include paths.
 */
function renameResource(before: Resources, track: NameTrack, to: string, from: string): Resources {
  const toKey = foreignKeyOf(to, before[to]!.singular)
  const fromKey = foreignKeyOf(from)
  const resources = renameKey(before, to, from)
  moveKey(track, to, from)
  const { singular: _dropped, ...renamed } = resources[from]!
  resources[from] = renamed
  /** `<resource>/<old relation name>` → the relation's older name. */
  const relationRenames = new Map<string, string>()
  for (const [name, resource] of Object.entries(resources)) {
    if (resource.parent === to) {
      resource.parent = from
      renameFieldMentions(resource, toKey, fromKey)
      moveKey(track.get(name)!.fields, toKey, fromKey)
      renameVia(resources, name, toKey, fromKey)
    }
    for (const [relationName, relation] of Object.entries(resource.relations ?? {})) {
      if (relation.resource !== to) continue
      relation.resource = from
      const namedAfter = relation.many === true ? to.replaceAll('-', '_') : withoutIdSuffix(toKey)
      if (relationName !== namedAfter) continue
      const olderName = relation.many === true ? from.replaceAll('-', '_') : withoutIdSuffix(fromKey)
      resource.relations = renameKey(resource.relations!, relationName, olderName)
      relationRenames.set(`${name}/${relationName}`, olderName)
      moveKey(track.get(name)!.relations, relationName, olderName)
      if (relation.many !== true) {
        renameFieldMentions(resource, relationKeyOf(relationName), relationKeyOf(olderName))
        moveKey(track.get(name)!.fields, relationKeyOf(relationName), relationKeyOf(olderName))
        renameVia(resources, name, relationName, olderName)
      }
    }
  }
  for (const [name, resource] of Object.entries(resources)) {
    if (resource.include)
      resource.include = resource.include.map((path) => renameIncludePath(resources, name, path, relationRenames))
  }
  return resources
}

/** An include path of `resource` with each renamed relation on its way given its older name. */
function renameIncludePath(
  resources: Resources,
  resource: string,
  path: string,
  relationRenames: ReadonlyMap<string, string>,
): string {
  let current: string | undefined = resource
  return path
    .split('.')
    .map((segment) => {
      const renamed = relationRenames.get(`${current}/${segment}`) ?? segment
      current = current === undefined ? undefined : resources[current]?.relations?.[renamed]?.resource
      return renamed
    })
    .join('.')
}

/**
 * The resources without `name`, which the older version does not have yet,
 * nor the relations to it or through it (a belongs-to's key included; a
 * many-to-many whose join it is) and the include paths and filters through
 * them.
 */
function withoutResource(before: Resources, track: NameTrack, name: string): Resources {
  const resources = withoutKey(before, name)
  track.delete(name)
  for (const [other, resource] of Object.entries(resources)) {
    for (const [relationName, relation] of Object.entries(resource.relations ?? {})) {
      if (relation.resource !== name && relation.through !== name) continue
      resource.relations = withoutKey(resource.relations!, relationName)
      track.get(other)?.relations.delete(relationName)
      if (relation.many !== true) track.get(other)?.fields.delete(relationKeyOf(relationName))
      resource.include = resource.include?.filter(
        (path) => path !== relationName && !path.startsWith(`${relationName}.`),
      )
      if (resource.filter) {
        resource.filter = Object.fromEntries(
          Object.entries(resource.filter).filter(([field]) => !field.startsWith(`${relationName}.`)),
        )
      }
    }
  }
  return resources
}

/**
 * Nests `name` under `fromParent` again. The belongs-to that held the parent
 * key in the newer version (`post: { resource: posts }` for `post_id`) gives
 * way to the parent, passing on its `on_delete`; has-manys that inverted it now
 * invert the parent key.
 */
function rerootResource(resources: Resources, track: NameTrack, name: string, fromParent: string): void {
  const resource = resources[name]!
  const parentKey = foreignKeyOf(fromParent, resources[fromParent]?.singular)
  const link = findParentLink(resource, fromParent, parentKey)
  if (link) {
    const [relationName, relation] = link
    resource.relations = withoutKey(resource.relations!, relationName)
    // The older parent key is the newer belongs-to's key, under the same name.
    track.get(name)!.relations.delete(relationName)
    if (relation.on_delete) resource.on_delete = relation.on_delete
    else delete resource.on_delete
    resource.include = resource.include?.filter((path) => path !== relationName && !path.startsWith(`${relationName}.`))
    renameVia(resources, name, relationName, parentKey)
  }
  resource.parent = fromParent
}

/**
 * The belongs-to of a re-rooted resource that holds its older parent key
 * (`post: { resource: posts }` for `post_id`): the column the older
 * version's nested routes read and write.
 */
export function findParentLink(
  resource: ManifestResource,
  parent: string,
  parentKey: string,
): [string, ManifestRelation] | undefined {
  return Object.entries(resource.relations ?? {}).find(
    ([relationName, relation]) =>
      relation.many !== true && relation.resource === parent && relationKeyOf(relationName) === parentKey,
  )
}

/** Has-many relations over `target` whose `via` is `from` now name `to`. */
function renameVia(resources: Resources, target: string, from: string, to: string): void {
  for (const resource of Object.values(resources)) {
    for (const relation of Object.values(resource.relations ?? {})) {
      if (relation.many === true && relation.resource === target && relation.via === from) relation.via = to
    }
  }
}

/** A field's name in the resource's `sort`, `filter` and `aggregate` lists; `to: null` removes it. */
function renameFieldMentions(resource: ManifestResource, from: string, to: string | null): void {
  const rename = (fields: readonly string[]) =>
    fields.flatMap((field) => (field !== from ? [field] : to === null ? [] : [to]))
  if (resource.sort) resource.sort = rename(resource.sort)
  if (resource.filter?.[from]) {
    resource.filter = to === null ? withoutKey(resource.filter, from) : renameKey(resource.filter, from, to)
  }
  const aggregate = resource.aggregate
  if (aggregate) {
    const { functions } = aggregate
    resource.aggregate = {
      ...aggregate,
      ...(aggregate.group_by ? { group_by: rename(aggregate.group_by) } : {}),
      ...(functions?.[from]
        ? { functions: to === null ? withoutKey(functions, from) : renameKey(functions, from, to) }
        : {}),
    }
  }
}

/** The record with key `from` renamed to `to`, in the same place. */
function renameKey<T>(record: Readonly<Record<string, T>>, from: string, to: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]))
}

/** `map` with key `from` renamed to `to` (moved to the end); nothing when `from` is not there. */
function moveKey<T>(map: Map<string, T>, from: string, to: string): void {
  if (!map.has(from)) return
  const value = map.get(from)!
  map.delete(from)
  map.set(to, value)
}

function withoutKey<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key))
}
