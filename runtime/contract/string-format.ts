/** The `format:` a string field may declare; filters and bodies check it alike (ajv-formats). */
export const STRING_FORMATS = ['email', 'uri', 'uuid'] as const

export type StringFormat = (typeof STRING_FORMATS)[number]
