import { asRecord } from '../manifest/as-record.js'
import { deriveResourceNames, type ResourceNames } from '../names/derive-names.js'
import { FIXED_NAMES, listGeneratedNames, type GeneratedName } from '../names/generated-names.js'
import { explainUnsafeIdentifier, MAX_SQL_IDENTIFIER_LENGTH } from '../names/identifiers.js'
import type { CheckContext } from './check-context.js'
import { explainUnsafeName } from './explain-unsafe-name.js'
import { findCaseProblem } from './find-case-problem.js'
import { findResourceNameProblem } from './find-resource-name-problem.js'

/** Who already generates a name: a resource, or restmint itself (null). */
interface Owner {
  readonly resource: string | null
  readonly generated: GeneratedName
}

/**
 * What the generator derives from each resource name, judged before anything
 * is rendered, at the resource's key:
 *
 * - UNSAFE_NAME when a derived identifier cannot be declared in an ES module
 *   (`arguments` becomes the identifier `arguments`) or the derived foreign
 *   key `<singular>_id` is longer than PostgreSQL keeps;
 * - NAME_COLLISION when the resource would generate a name that another
 *   resource, or restmint itself, already generates in the same namespace
 *   (`problems` → the OpenAPI schema `Problem`; `book-pages` → `BookPage`, the
 *   page envelope of `books`).
 *
 * The names are the renderers' own (names/generated-names.ts). Resources
 * whose names break the naming rules, or that repeat an earlier singular
 * (SINGULAR_COLLISION), are left to those rules. A resource gets at most one
 * diagnostic here, for its first problem: one fix usually solves the rest.
 */
export function checkGeneratedNames(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources)
  if (resources === null) return
  const taken = new Map<string, Owner>(
    FIXED_NAMES.map((generated) => [keyOf(generated), { resource: null, generated }]),
  )
  const singulars = new Set<string>()
  for (const [name, value] of Object.entries(resources)) {
    const resource = asRecord(value)
    const declared = typeof resource?.singular === 'string' ? resource.singular : undefined
    if (!hasValidNames(name, declared)) continue
    const names = deriveResourceNames(name, declared)
    if (singulars.has(names.singular)) continue
    singulars.add(names.singular)
    const at = context.atKey(['resources', name])
    const unsafe = explainUnsafeDerivedName(name, names, declared !== undefined)
    if (unsafe !== null) {
      context.report('UNSAFE_NAME', unsafe, at)
      continue
    }
    const generatedNames = listGeneratedNames(
      names,
      typeof resource?.parent === 'string',
      asRecord(resource?.aggregate) !== null,
    )
    const collision = generatedNames.find((generated) => taken.has(keyOf(generated)))
    if (collision !== undefined) {
      context.report('NAME_COLLISION', explainCollision(name, collision, taken.get(keyOf(collision))!), at)
      continue
    }
    for (const generated of generatedNames) taken.set(keyOf(generated), { resource: name, generated })
  }
}

function keyOf(generated: GeneratedName): string {
  return `${generated.scope}\u0000${generated.name}`
}

/** The name passes the naming rules, and so does its declared singular. */
function hasValidNames(name: string, declared: string | undefined): boolean {
  if (findResourceNameProblem(name, declared !== undefined) !== null) return false
  return (
    declared === undefined ||
    (explainUnsafeName(declared, 'singular') === null && findCaseProblem(declared, '-') === null)
  )
}

function explainUnsafeDerivedName(name: string, names: ResourceNames, hasSingular: boolean): string | null {
  const label = `resource "${name}"`
  const identifier = explainUnsafeIdentifier(names.identifier)
  if (identifier !== null) {
    return `${label} becomes the identifier "${names.identifier}" in generated code, which ${identifier}; rename the resource, e.g. with a qualifying word ("<word>-${name}")`
  }
  const typeName = explainUnsafeIdentifier(names.typeName)
  if (typeName !== null) {
    return `${label} becomes the type name "${names.typeName}" in generated code, which ${typeName}; declare another singular: or rename the resource`
  }
  if (names.idParam.length > MAX_SQL_IDENTIFIER_LENGTH) {
    const over = names.idParam.length - MAX_SQL_IDENTIFIER_LENGTH
    const characters = over === 1 ? '1 character' : `${over} characters`
    const fix = hasSingular
      ? `shorten its singular: by ${characters} or more`
      : `shorten the name by ${characters} or more, or declare a shorter singular:`
    return `${label} names its records by the key "${names.idParam}" (the foreign key column of its children, and a path parameter), which is ${names.idParam.length} characters long; PostgreSQL cuts names longer than ${MAX_SQL_IDENTIFIER_LENGTH} characters (so two could become one); ${fix}`
  }
  return null
}

function explainCollision(name: string, generated: GeneratedName, owner: Owner): string {
  const what = `${generated.scope} "${generated.name}" (its ${generated.role})`
  if (owner.resource === null) {
    const fix = generated.fromTypeName
      ? 'declare a singular: that gives it another type name, or rename the resource'
      : 'rename the resource'
    return `resource "${name}" would generate ${what}, which is ${owner.generated.role}; ${fix}`
  }
  let fix = 'rename one of them'
  if (generated.fromTypeName) {
    fix = owner.generated.fromTypeName
      ? 'declare a different singular: for one of them (it names their types), or rename one'
      : `declare a singular: for "${name}" that gives it another type name, or rename one of them`
  }
  return `resource "${name}" would generate ${what}, which is already the ${owner.generated.role} of resource "${owner.resource}"; ${fix}`
}
