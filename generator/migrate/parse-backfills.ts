import { parseQueryValue } from '../../runtime/query/parse-query-value.js'
import type { StorageSnapshot } from '../../runtime/migrations/storage-snapshot.js'
import { didYouMean } from '../diagnostics/did-you-mean.js'
import { snakeCase } from '../names/derive-names.js'
import type { Backfill } from './backfill.js'
import type { TableOrigin } from './table-origins.js'

/**
 * Reads `--backfill resource.field=value` options against the manifest's
 * storage model: the column must exist, and the value parse as its type
 * (integers, numbers, `true`/`false`, dates, RFC 3339 datetimes; strings as
 * given). Returns every backfill, or every problem (each a full sentence).
 */
export function parseBackfills(
  options: readonly string[],
  after: StorageSnapshot,
  origins: ReadonlyMap<string, TableOrigin>,
): { backfills: Backfill[]; problems: string[] } {
  const backfills: Backfill[] = []
  const problems: string[] = []
  const resources = [...origins.values()].map((origin) => origin.resource)
  for (const option of options) {
    const match = /^([^.=]+)\.([^.=]+)=(.*)$/s.exec(option)
    if (match === null) {
      problems.push(`--backfill ${option}: write it as resource.field=value, e.g. --backfill posts.summary=none`)
      continue
    }
    const [, resource = '', field = '', raw = ''] = match
    const table = after.tables.find((candidate) => candidate.name === snakeCase(resource))
    if (table === undefined || origins.get(table.name)?.resource !== resource) {
      const near = didYouMean(resource, resources)
      problems.push(
        `--backfill ${option}: "${resource}" is not a resource of the manifest; ${near === null ? `resources: ${resources.join(', ')}` : `did you mean "${near}"?`}`,
      )
      continue
    }
    const column = table.columns.find((candidate) => candidate.name === field)
    if (column === undefined) {
      const near = didYouMean(
        field,
        table.columns.map((candidate) => candidate.name),
      )
      problems.push(
        `--backfill ${option}: resource "${resource}" has no field "${field}"${near === null ? '' : `; did you mean "${near}"?`}`,
      )
      continue
    }
    if (backfills.some((backfill) => backfill.table === table.name && backfill.column === field)) {
      problems.push(`--backfill ${option}: ${resource}.${field} is given a value twice; keep one`)
      continue
    }
    const parsed = parseQueryValue(raw, column)
    if ('problem' in parsed) {
      problems.push(`--backfill ${option}: the value of ${resource}.${field} (${column.type}) ${parsed.problem}`)
      continue
    }
    backfills.push({ table: table.name, column: field, value: parsed.value, option })
  }
  return { backfills, problems }
}
