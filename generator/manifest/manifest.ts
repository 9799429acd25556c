/**
 * The manifest as written in resources.yaml (format 1), after schema
 * validation. Only the validate stage and the model builder read this shape;
 * templates never see it.
 */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime'
export type StringFormat = 'email' | 'uri' | 'uuid'
export type OnDelete = 'restrict' | 'cascade'

export interface ManifestField {
  type: FieldType
  required?: boolean
  nullable?: boolean
  default?: string | number | boolean | null
  enum?: (string | number)[]
  minimum?: number
  maximum?: number
  min_length?: number
  max_length?: number
  pattern?: string
  format?: StringFormat
  unique?: boolean
}

export interface ManifestResource {
  singular?: string
  parent?: string
  on_delete?: OnDelete
  fields?: Record<string, ManifestField>
}

export interface Manifest {
  restmint: 1
  service: { title: string; description?: string; base_url?: string }
  limits?: {
    per_page_default?: number
    per_page_max?: number
    include_max?: number
    include_depth?: number
    body_max_bytes?: number
  }
  versions: Record<string, Record<string, never>>
  resources: Record<string, ManifestResource>
}
