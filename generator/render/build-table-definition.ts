import type { ColumnDefinition, TableDefinition } from '../../runtime/table-definition.js'
import type { ApiModel, ResourceModel } from '../model/api-model.js'
import { findResource } from '../model/find-resource.js'

/** The runtime's view of a resource's table (written into generated schema.ts). */
export function buildTableDefinition(resource: ResourceModel, model: ApiModel): TableDefinition {
  const columns: ColumnDefinition[] = resource.fields.map((field) => ({
    name: field.name,
    type: field.type,
    nullable: field.storedNullable,
    unique: field.unique,
    readOnly: field.readOnly,
    default: field.default,
    ...(field.enum ? { enum: field.enum } : {}),
    ...(field.format ? { format: field.format } : {}),
    ...(field.references
      ? { references: { table: findResource(model, field.references.resource).table, onDelete: field.references.onDelete } }
      : {}),
  }))
  return {
    name: resource.table,
    resource: resource.name,
    singular: resource.singular,
    columns,
    referencedBy: model.resources.flatMap((other) =>
      other.fields
        .filter((field) => field.references?.resource === resource.name)
        .map((field) => ({
          table: other.table,
          resource: other.name,
          column: field.name,
          onDelete: field.references!.onDelete,
        })),
    ),
  }
}
