import { HOOK_NAMES, type HookName } from '../contract/hook-name.js'
import { ServerConfigurationError } from '../ops/server-configuration-error.js'
import type { AppDefinition } from './define-app.js'

/** One way an app module disagrees with the manifest. */
export type AppMismatch =
  /** The default export is not defineApp's result; `what` says how. */
  | { readonly kind: 'invalid'; readonly what: string }
  /** `resources.<resource>.hooks` lists `hook`, the module does not export it. */
  | { readonly kind: 'hook-not-exported'; readonly resource: string; readonly hook: HookName }
  /** The module exports `hooks.<resource>.<hook>`, the manifest does not list it (or has no such resource). */
  | { readonly kind: 'hook-not-declared'; readonly resource: string; readonly hook: string; readonly known: boolean }
  /** `resources.<resource>.computed` declares fields, the module exports no `compute.<resource>`. */
  | { readonly kind: 'compute-not-exported'; readonly resource: string }
  /** The module exports `compute.<resource>`, which has no computed fields (or is no resource). */
  | { readonly kind: 'compute-not-declared'; readonly resource: string }

/**
 * Compares an app module's default export with what the manifest declares:
 * each resource's `hooks:` (by the newest version's resource name; `known`
 * holds every resource name). `restmint check` and `serve` report the
 * result with positions; the runtime refuses to start on any.
 */
export function compareAppModule(
  app: unknown,
  declared: {
    readonly resources: readonly string[]
    readonly hooks: Readonly<Record<string, readonly HookName[]>>
    readonly computed: Readonly<Record<string, readonly string[]>>
  },
): AppMismatch[] {
  if (typeof app !== 'object' || app === null || Array.isArray(app)) {
    return [{ kind: 'invalid', what: `its default export is ${describe(app)}, not defineApp({...})'s result` }]
  }
  const { hooks = {} } = app as { hooks?: unknown }
  for (const member of ['hooks', 'compute', 'operations'] as const) {
    const value = (app as Record<string, unknown>)[member]
    if (value !== undefined && (typeof value !== 'object' || value === null)) {
      return [{ kind: 'invalid', what: `its ${member} is ${describe(value)}, not an object` }]
    }
  }
  const mismatches: AppMismatch[] = []
  const exported = hooks as Record<string, unknown>
  for (const resource of declared.resources) {
    const own = exportedHooks(exported[resource])
    for (const hook of declared.hooks[resource] ?? []) {
      if (!own.includes(hook)) mismatches.push({ kind: 'hook-not-exported', resource, hook })
    }
  }
  for (const [resource, value] of Object.entries(exported)) {
    const known = declared.resources.includes(resource)
    for (const hook of exportedHooks(value)) {
      if (!known || !(declared.hooks[resource] ?? []).includes(hook as HookName)) {
        mismatches.push({ kind: 'hook-not-declared', resource, hook, known })
      }
    }
  }
  const compute = ((app as { compute?: unknown }).compute ?? {}) as Record<string, unknown>
  for (const [resource, fields] of Object.entries(declared.computed)) {
    if (fields.length > 0 && typeof compute[resource] !== 'function') {
      mismatches.push({ kind: 'compute-not-exported', resource })
    }
  }
  for (const [resource, value] of Object.entries(compute)) {
    if (typeof value === 'function' && !declared.computed[resource]?.length) {
      mismatches.push({ kind: 'compute-not-declared', resource })
    }
  }
  return mismatches
}

/** The runtime's check: the app module must export exactly the declared hooks, or the server does not start. */
export function checkAppModule(
  api: {
    readonly tables: readonly { readonly resource: string }[]
    readonly hooks?: Readonly<Record<string, readonly HookName[]>>
    readonly computed?: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  },
  app: AppDefinition<any>,
): AppDefinition<any> {
  // server.ts of an earlier restmint listed computed fields by name only; their types are needed now.
  if (Object.values(api.computed ?? {}).some((fields) => Array.isArray(fields))) {
    throw new ServerConfigurationError(
      'the generated server.ts was written by an earlier restmint (its computed fields have no types); ' +
        'run restmint generate, then start again',
    )
  }
  const mismatches = compareAppModule(app, {
    resources: api.tables.map((table) => table.resource),
    hooks: api.hooks ?? {},
    computed: Object.fromEntries(
      Object.entries(api.computed ?? {}).map(([name, fields]) => [name, Object.keys(fields)]),
    ),
  })
  if (mismatches.length === 0) return app
  throw new ServerConfigurationError(
    `the app module disagrees with the manifest: ${mismatches.map(describeMismatch).join('; ')}; ` +
      'run restmint check for each with its position',
  )
}

/** One mismatch as a sentence fragment, with its fix. */
export function describeMismatch(mismatch: AppMismatch): string {
  switch (mismatch.kind) {
    case 'compute-not-exported':
      return (
        `resource "${mismatch.resource}" declares computed fields, and the app module exports no ` +
        `compute.${mismatch.resource}; export it (records => their computed values), or remove the fields`
      )
    case 'compute-not-declared':
      return (
        `the app module exports compute.${mismatch.resource}, and resource "${mismatch.resource}" declares no ` +
        'computed fields; declare them under its computed:, or remove the function'
      )
    case 'invalid':
      return `the app module is not an app: ${mismatch.what}; export default defineApp({...}) from restmint/runtime`
    case 'hook-not-exported':
      return (
        `resource "${mismatch.resource}" lists hook ${mismatch.hook}, which the app module does not export; ` +
        `export hooks.${mismatch.resource}.${mismatch.hook}, or remove it from the list`
      )
    case 'hook-not-declared':
      if (!mismatch.known) {
        return (
          `the app module exports hooks for "${mismatch.resource}", which is not a resource of the manifest; ` +
          'correct the name, or remove them'
        )
      }
      if (!(HOOK_NAMES as readonly string[]).includes(mismatch.hook)) {
        return (
          `the app module exports hooks.${mismatch.resource}.${mismatch.hook}, which is not a hook ` +
          `(hooks are ${HOOK_NAMES.join(', ')}); rename or remove it`
        )
      }
      return (
        `the app module exports hooks.${mismatch.resource}.${mismatch.hook}, which resource "${mismatch.resource}" ` +
        `does not list; add it to its hooks: [...], or remove it from the module`
      )
  }
}

/** The hook names an exported `hooks.<resource>` object holds functions under. */
function exportedHooks(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value)
    .filter(([, hook]) => typeof hook === 'function')
    .map(([name]) => name)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
