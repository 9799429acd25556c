import { createStorage } from '../../runtime/storage/create-storage.js'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { loadProject } from '../load-project.js'
import type { CliIo } from './cli-io.js'
import { requireSchemaName } from './migration-options.js'
import { reportDiagnostics } from './report-diagnostics.js'
import { withDatabaseErrors } from './with-database-errors.js'

export interface PurgeOptions {
  readonly manifest: string
  readonly db: string
  readonly schema: string
  /** Whole days: rows soft-deleted longer ago than this go. */
  readonly olderThan: number
  readonly batchSize: number
  /** Only this resource; default every `soft_delete: true` one. */
  readonly resource?: string
}

const DAY_MS = 86_400_000

/**
 * `restmint purge --older-than <days>`: deletes for good the records of
 * `soft_delete: true` resources that were soft-deleted more than that many
 * days ago, `--batch-size` rows per transaction, their children following
 * their `on_delete` (cascade, set_null); a record a `restrict` reference
 * still holds stays and is counted. A command to run from cron or a job
 * scheduler, never a timer inside the server. The database must match the
 * manifest (as `serve` checks); nothing else is created or altered.
 */
export async function runPurge(options: PurgeOptions, io: CliIo): Promise<number> {
  requireSchemaName(options.schema)
  const project = await loadProject(io.cwd, options.manifest)
  const validated = await project.validated()
  const failed = reportDiagnostics(
    { diagnostics: validated.diagnostics, sources: project.sources, files: null },
    options.manifest,
    io,
    true,
  )
  if (failed || validated.manifest === null) return 1
  const model = await project.model()
  const softDeleting = model.resources.filter((resource) => resource.softDelete)
  const chosen = options.resource === undefined ? softDeleting : softDeleting.filter((r) => r.name === options.resource)
  if (chosen.length === 0) {
    const which = softDeleting.map((resource) => resource.name).join(', ')
    throw new UserError(
      options.resource === undefined
        ? `${options.manifest} has no resource with soft_delete: true; there is nothing to purge`
        : `--resource ${options.resource} is not a resource with soft_delete: true in ${options.manifest}` +
            (which === '' ? '' : `; those are: ${which}`),
    )
  }
  const deletedBefore = new Date(Date.now() - options.olderThan * DAY_MS).toISOString()
  const storage = createStorage(
    options.db,
    model.resources.map((resource) => resource.definition),
    { schema: options.schema },
  )
  try {
    return await withDatabaseErrors(options.db, async () => {
      await storage.prepare({ createMissing: false })
      for (const resource of chosen) {
        const { purged, kept } = await storage.purge(resource.definition, deletedBefore, options.batchSize)
        const held = kept === 0 ? '' : `; ${kept} kept: still referenced by restrict relations (delete those first)`
        io.stdout(
          redactCredentials(`restmint: purged ${purged} ${resource.name} deleted before ${deletedBefore}${held}\n`),
        )
      }
      return 0
    })
  } finally {
    await storage.close()
  }
}
