import { RESTORATIONS } from '../../runtime/contract/table-definition.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'

/**
 * RESTORATIONS_PATH_TAKEN: a `soft_delete: true` resource restores a record
 * at `/<resource>/{id}/restorations`, so nothing else of it may be served
 * there: a child resource, an operation or a has-many relation (whose list
 * is `/<resource>/{id}/<relation>`) named `restorations`.
 */
export function checkRestorationsPath(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const [resourceName, value] of Object.entries(resources)) {
    const resource = asRecord(value)
    if (resource?.soft_delete !== true) continue
    const report = (what: string, at: ReturnType<CheckContext['atKey']>, fix: string) =>
      context.report(
        'RESTORATIONS_PATH_TAKEN',
        `${what} of resource "${resourceName}" would be served at /${resourceName}/{id}/${RESTORATIONS}, ` +
          `where soft_delete: true restores a deleted record; ${fix}`,
        at,
      )
    if (asRecord(resources[RESTORATIONS])?.parent === resourceName) {
      report(
        `the child resource "${RESTORATIONS}"`,
        context.atValue(['resources', RESTORATIONS, 'parent']),
        'rename the child resource',
      )
    }
    if (asRecord(resource.operations)?.[RESTORATIONS] !== undefined) {
      report(
        `operation "${RESTORATIONS}"`,
        context.atKey(['resources', resourceName, 'operations', RESTORATIONS]),
        'rename the operation',
      )
    }
    if (asRecord(asRecord(resource.relations)?.[RESTORATIONS])?.many === true) {
      report(
        `the has-many relation "${RESTORATIONS}"`,
        context.atKey(['resources', resourceName, 'relations', RESTORATIONS]),
        'rename the relation',
      )
    }
  }
}
