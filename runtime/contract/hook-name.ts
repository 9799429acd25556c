/**
 * The hooks a resource may have, in the order they run for one write: a
 * manifest's `hooks:` lists them, the app module exports them (define-app.ts).
 */
export const HOOK_NAMES = [
  'beforeCreate',
  'beforeUpdate',
  'beforeDelete',
  'afterCreate',
  'afterUpdate',
  'afterDelete',
  'afterCommit',
] as const

export type HookName = (typeof HOOK_NAMES)[number]
