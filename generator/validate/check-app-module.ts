import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { asRecord } from '../manifest/as-record.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import { createCheckContext, type CheckContext } from './check-context.js'

/** Where the manifest's `app:` module is: relative to the manifest, not to the working directory. */
export function resolveAppModule(cwd: string, manifestFile: string, appModule: string): string {
  return resolve(dirname(resolve(cwd, manifestFile)), appModule)
}

/** HOOKS_WITHOUT_APP: a resource's `hooks:` list needs a module to export them from. */
export function checkHooksWithoutApp(context: CheckContext, data: unknown): void {
  const manifest = asRecord(data)
  if (manifest === null || manifest.app !== undefined) return
  for (const [name, resource] of Object.entries(asRecord(manifest.resources) ?? {})) {
    const hooks = asRecord(resource)?.hooks
    if (!Array.isArray(hooks) || hooks.length === 0) continue
    context.report(
      'HOOKS_WITHOUT_APP',
      `resource "${name}" lists hooks, but the manifest has no \`app:\` module to export them from; ` +
        'add `app: ./src/app.ts` (the module default-exporting defineApp({...})), or remove the list',
      context.atKey(['resources', name, 'hooks']),
    )
  }
}

/** APP_MODULE_MISSING for a manifest whose `app:` names no file; none when it has no `app:` or the file exists. */
export function checkAppModuleFile(loaded: LoadedManifest, cwd: string): Diagnostic[] {
  const appModule = asRecord(loaded.data)?.app
  if (typeof appModule !== 'string' || existsSync(resolveAppModule(cwd, loaded.file, appModule))) return []
  const { context, diagnostics } = createCheckContext(loaded)
  context.report(
    'APP_MODULE_MISSING',
    `app module ${appModule} not found (looked for ${resolveAppModule(cwd, loaded.file, appModule)}, relative to ` +
      `${loaded.file}); create it, default-exporting defineApp({...}) from restmint/runtime, or correct the path`,
    context.atValue(['app']),
  )
  return diagnostics
}
