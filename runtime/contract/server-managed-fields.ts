import type { FieldType } from './field-type.js'

/**
 * The fields every record has and the storage writes: `id` first, the
 * timestamps last. Clients never set them, and a manifest may not declare them.
 */
export const SERVER_MANAGED_FIELDS = {
  id: 'integer',
  created_at: 'datetime',
  updated_at: 'datetime',
} as const satisfies Readonly<Record<string, FieldType>>

export type ServerManagedField = keyof typeof SERVER_MANAGED_FIELDS

export function isServerManagedField(name: string): name is ServerManagedField {
  return Object.hasOwn(SERVER_MANAGED_FIELDS, name)
}
