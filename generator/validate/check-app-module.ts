import { existsSync } from 'node:fs'
import { resolveAppModule } from './resolve-app-module.js'
import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { asRecord } from '../manifest/as-record.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import type { Manifest } from '../manifest/manifest.js'
import { deriveResourceNames } from '../names/derive-names.js'
import { compareAppModule, describeMismatch } from '../../runtime/app/check-app-module.js'
import { compareOperationHandlers, describeOperationMismatch } from '../../runtime/app/compare-operation-handlers.js'
import { operationHandlerKey } from '../../runtime/contract/operation-route.js'
import { createCheckContext, type CheckContext } from './check-context.js'

/** HOOKS_WITHOUT_APP: a resource's `hooks:` list needs a module to export them from. */
export function checkHooksWithoutApp(context: CheckContext, data: unknown): void {
  const manifest = asRecord(data)
  if (manifest === null || manifest.app !== undefined) return
  for (const [name, resource] of Object.entries(asRecord(manifest.resources) ?? {})) {
    for (const key of ['hooks', 'computed'] as const) {
      const value = asRecord(resource)?.[key]
      if (value === undefined || (Array.isArray(value) && value.length === 0)) continue
      context.report(
        'HOOKS_WITHOUT_APP',
        `resource "${name}" declares ${key === 'hooks' ? 'hooks' : 'computed fields'}, but the manifest has no ` +
          '`app:` module to export them from; add `app: ./src/app.ts` (the module default-exporting ' +
          'defineApp({...})), or remove them',
        context.atKey(['resources', name, key]),
      )
    }
  }
}

/** COMPUTED_NAME_CLASH: a computed field may not share a name the records already have. */
export function checkComputedNames(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  for (const [name, value] of Object.entries(resources)) {
    const resource = asRecord(value)
    const computed = asRecord(resource?.computed)
    if (!resource || !computed) continue
    const taken = new Set(['id', 'created_at', 'updated_at', ...Object.keys(asRecord(resource.fields) ?? {})])
    for (const [relation, options] of Object.entries(asRecord(resource.relations) ?? {})) {
      taken.add(relation)
      if (asRecord(options)?.many !== true) taken.add(`${relation}_id`)
    }
    const owner = asRecord(resource.owner)?.field
    if (typeof owner === 'string') taken.add(owner)
    const parent = resource.parent
    if (typeof parent === 'string' && parent in resources) {
      const singular = asRecord(resources[parent])?.singular
      taken.add(deriveResourceNames(parent, typeof singular === 'string' ? singular : undefined).idParam)
    }
    for (const field of Object.keys(computed)) {
      if (!taken.has(field)) continue
      context.report(
        'COMPUTED_NAME_CLASH',
        `computed field "${field}" of resource "${name}" has the name of one of its fields or relations; ` +
          'rename the computed field',
        context.atKey(['resources', name, 'computed', field]),
      )
    }
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

/**
 * OPERATION_HANDLER_MISSING at an operation the module has no handler for,
 * OPERATION_HANDLER_UNDECLARED at `app:` for a handler no operation declares.
 */
function checkOperationHandlers(context: CheckContext, manifest: Manifest, app: unknown): void {
  const declared = new Map(
    Object.entries(manifest.resources).flatMap(([resource, { operations = {} }]) =>
      Object.entries(operations).map(([name, operation]) => [
        operationHandlerKey(resource, name, operation.method),
        ['resources', resource, 'operations', name],
      ]),
    ),
  )
  const operations = typeof app === 'object' && app !== null ? (app as { operations?: unknown }).operations : undefined
  for (const mismatch of compareOperationHandlers(operations, [...declared.keys()])) {
    const message = describeOperationMismatch(mismatch)
    if (mismatch.kind === 'handler-missing') {
      context.report('OPERATION_HANDLER_MISSING', message, context.atKey(declared.get(mismatch.key)!))
    } else {
      context.report('OPERATION_HANDLER_UNDECLARED', message, context.atValue(['app']))
    }
  }
}

/**
 * The app module's exports against the manifest's declarations, with
 * positions: APP_MODULE_INVALID, HOOK_NOT_EXPORTED, HOOK_NOT_DECLARED.
 * `app` is the module's default export, or the error loading it threw.
 */
export function checkAppExports(
  loaded: LoadedManifest,
  manifest: Manifest,
  app: { loaded: unknown } | { error: unknown },
): Diagnostic[] {
  const { context, diagnostics } = createCheckContext(loaded)
  if ('error' in app) {
    const reason = app.error instanceof Error ? app.error.message.split('\n')[0] : String(app.error)
    context.report(
      'APP_MODULE_INVALID',
      `app module ${manifest.app} does not load: ${reason}; fix the module (run it with tsx to see the whole error)`,
      context.atValue(['app']),
    )
    return diagnostics
  }
  const declared = Object.fromEntries(
    Object.entries(manifest.resources).map(([name, resource]) => [name, resource.hooks ?? []]),
  )
  const computed = Object.fromEntries(
    Object.entries(manifest.resources).map(([name, resource]) => [name, Object.keys(resource.computed ?? {})]),
  )
  const resources = Object.keys(declared)
  for (const mismatch of compareAppModule(app.loaded, { resources, hooks: declared, computed })) {
    const message = describeMismatch(mismatch)
    if (mismatch.kind === 'compute-not-exported') {
      context.report('COMPUTE_NOT_EXPORTED', message, context.atKey(['resources', mismatch.resource, 'computed']))
    } else if (mismatch.kind === 'compute-not-declared') {
      const known = resources.includes(mismatch.resource)
      context.report(
        'COMPUTE_NOT_DECLARED',
        message,
        known ? context.atKey(['resources', mismatch.resource]) : context.atValue(['app']),
      )
    } else if (mismatch.kind === 'invalid') {
      context.report('APP_MODULE_INVALID', message, context.atValue(['app']))
    } else if (mismatch.kind === 'hook-not-exported') {
      const index = declared[mismatch.resource]!.indexOf(mismatch.hook)
      context.report('HOOK_NOT_EXPORTED', message, context.atValue(['resources', mismatch.resource, 'hooks', index]))
    } else if (!mismatch.known) {
      context.report('HOOK_NOT_DECLARED', message, context.atValue(['app']))
    } else {
      const listed = manifest.resources[mismatch.resource]?.hooks !== undefined
      const path = listed ? ['resources', mismatch.resource, 'hooks'] : ['resources', mismatch.resource]
      context.report('HOOK_NOT_DECLARED', message, context.atKey(path))
    }
  }
  checkOperationHandlers(context, manifest, app.loaded)
  return diagnostics
}
