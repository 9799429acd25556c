import type { Project } from '../load-project.js'
import { resolveAppModule } from '../validate/resolve-app-module.js'
import type { CliIo } from './cli-io.js'
import { reportDiagnostics } from './report-diagnostics.js'

/**
 * `check` and `serve`: the app module's exports against the manifest's
 * `hooks:` declarations, printed as diagnostics; 1 when they disagree, 0
 * when they agree or the manifest has no `app:`. `check` loads the module
 * here; `serve` passes the one its server bundle imported.
 */
export async function reportAppModule(
  project: Project,
  io: CliIo,
  loaded?: { readonly module: unknown },
): Promise<number> {
  const { loaded: manifestSource, manifest } = await project.validated()
  if (!manifest?.app) return 0
  const { checkAppExports } = await import('../validate/check-app-module.js')
  let app: { loaded: unknown } | { error: unknown }
  if (loaded) app = { loaded: loaded.module }
  else {
    try {
      const { loadBundledModule } = await import('./load-generated-server.js')
      app = {
        loaded: (await loadBundledModule(resolveAppModule(project.cwd, project.manifestFile, manifest.app))).default,
      }
    } catch (error) {
      app = { error }
    }
  }
  const diagnostics = checkAppExports(manifestSource, manifest, app)
  return reportDiagnostics({ diagnostics, sources: project.sources, files: null }, project.manifestFile, io) ? 1 : 0
}
