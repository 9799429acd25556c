import { checkAggregates } from './check-aggregates.js'
import type { CheckContext } from './check-context.js'
import { checkFieldNames } from './check-field-names.js'
import { checkFieldOptions } from './check-field-options.js'
import { checkFieldTypes } from './check-field-types.js'
import { checkFilters } from './check-filters.js'
import { checkGeneratedNames } from './check-generated-names.js'
import { checkHasMany } from './check-has-many.js'
import { checkIncludes } from './check-includes.js'
import { checkManyToMany } from './check-many-to-many.js'
import { checkUnique } from './check-unique.js'
import { checkParents } from './check-parents.js'
import { checkReferenceCycles } from './check-reference-cycles.js'
import { checkRelations } from './check-relations.js'
import { checkRenames } from './check-renames.js'
import { checkResourceNames } from './check-resource-names.js'
import { checkSort } from './check-sort.js'

/**
 * The checks of `resources:` beyond its schema, in reporting order: what the
 * manifest's resources must pass, and so must every older version's resources
 * derived from them.
 */
export const RESOURCE_CHECKS: readonly ((context: CheckContext, data: unknown) => void)[] = [
  checkResourceNames,
  checkGeneratedNames,
  checkParents,
  checkFieldNames,
  checkFieldOptions,
  checkFieldTypes,
  checkRelations,
  checkHasMany,
  checkManyToMany,
  checkReferenceCycles,
  checkIncludes,
  checkSort,
  checkFilters,
  checkAggregates,
  checkUnique,
  checkRenames,
]
